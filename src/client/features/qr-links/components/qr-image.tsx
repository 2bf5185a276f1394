import { QR_SIZE_PX } from '../../../../shared/constants.ts';
import { useQrCode } from '../../../ui/use-qr-code.ts';

/** A QR code of `text`, drawn on this device once shown. */
export function QrImage({ text, label, size = QR_SIZE_PX }: { text: string; label: string; size?: number }) {
  const { url, failed } = useQrCode(text);
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
