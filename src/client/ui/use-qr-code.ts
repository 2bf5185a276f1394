import { useEffect, useState } from 'react';
import { QR_SIZE_PX } from '../../shared/constants.ts';

async function renderQr(text: string): Promise<string> {
  // Loaded only by the screens that draw a QR code: the QR library stays out of every other download.
  const module = await import('qrcode');
  const qr = (module as unknown as { default?: typeof module }).default ?? module;
  return qr.toDataURL(text, { errorCorrectionLevel: 'M', width: QR_SIZE_PX, margin: 2, type: 'image/png' });
}

/** A QR code of `text` drawn on this device: its image as a data URL once drawn, or failed. */
export function useQrCode(text: string): { url: string | null; failed: boolean } {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setUrl(null);
    setFailed(false);
    renderQr(text).then(
      (next) => current && setUrl(next),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [text]);
  return { url, failed };
}
