import { useEffect, useState } from 'react';
import { QR_SIZE_PX } from '../../../../shared/constants.ts';

async function renderQr(text: string): Promise<string> {
  // Loaded only on the screens that show QR links: the QR library stays out of every other download.
  const module = await import('qrcode');
  const qr = (module as unknown as { default?: typeof module }).default ?? module;
  return qr.toDataURL(text, { errorCorrectionLevel: 'M', width: QR_SIZE_PX, margin: 2, type: 'image/png' });
}

/** A QR code of `text`, drawn on this device once shown. */
export function QrImage({ text, label, size = QR_SIZE_PX }: { text: string; label: string; size?: number }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    renderQr(text).then(
      (next) => current && setUrl(next),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [text]);
  if (failed) return <p className="muted">The QR code could not be drawn; use the text below.</p>;
  if (!url)
    return (
      <div
        className="qr-link-placeholder"
        style={{ width: size }}
        role="status"
        aria-label="Drawing the QR code"
      />
    );
  return (
    <img
      className="qr-link-image"
      src={url}
      width={size}
      height={size}
      alt={`QR code: ${label}`}
      data-qr-text={text}
    />
  );
}
