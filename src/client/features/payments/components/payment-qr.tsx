import { useEffect, useState } from 'react';
import { QR_SIZE_PX } from '../../../../shared/constants.ts';
import { PAYMENT_MESSAGES } from '../../../../shared/payments.ts';

/** Spec 2: the address with ?amount= appended, so a wallet app fills in both. */
export const qrText = (address: string, payAmount: string) => `${address}?amount=${payAmount}`;
/** Spec 9: a png named from the first 8 characters of the address. */
export const qrFileName = (address: string) => `${address.slice(0, 8)}.png`;

async function renderQr(text: string): Promise<string> {
  // Loaded only when a payment is shown: the QR library stays out of every other screen's download.
  const module = await import('qrcode');
  const qr = (module as unknown as { default?: typeof module }).default ?? module;
  // Spec 9: 250 px with the highest error correction.
  return qr.toDataURL(text, { errorCorrectionLevel: 'H', width: QR_SIZE_PX, margin: 2, type: 'image/png' });
}

/** The payment's QR code and its "Download QR" button. */
export function PaymentQr({ address, payAmount }: { address: string; payAmount: string }) {
  const text = qrText(address, payAmount);
  const [image, setImage] = useState<{ text: string; url: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setFailed(false);
    renderQr(text).then(
      (url) => current && setImage({ text, url }),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [text]);

  const url = image?.text === text ? image.url : null;

  function download() {
    if (!url) return;
    const link = document.createElement('a');
    link.href = url;
    link.download = qrFileName(address);
    document.body.append(link);
    link.click();
    link.remove();
  }

  return (
    <div className="qr">
      {url ? (
        <img
          src={url}
          width={QR_SIZE_PX}
          height={QR_SIZE_PX}
          alt={`QR code of the payment address ${address} with the amount ${payAmount}`}
          data-qr-text={text}
        />
      ) : failed ? (
        <p className="muted qr-placeholder">The QR code could not be drawn. Copy the address instead.</p>
      ) : (
        <div className="qr-placeholder" role="status" aria-label="Drawing the QR code" />
      )}
      <button type="button" className="button" onClick={download} disabled={!url}>
        {PAYMENT_MESSAGES.downloadQr}
      </button>
    </div>
  );
}
