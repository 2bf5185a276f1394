import { lazy, Suspense, useState } from 'react';
import { QR_MESSAGES } from '../../shared/qr.ts';
import { Modal } from './modal.tsx';
import { Spinner } from './spinner.tsx';

// The scanner (and, where the browser has no BarcodeDetector, html5-qrcode) is downloaded on the first
// click only: the transfer form and the rest of the app stay light on a phone.
const QrScanner = lazy(() => import('./qr-scanner.tsx'));

/**
 * A "Scan QR" button that opens the scanner in a dialog. `onResult` gets each code read and returns a
 * message to show (the dialog stays open) or undefined when the code was taken (the dialog closes).
 */
export function QrScannerButton({
  onResult,
  label = QR_MESSAGES.scanButton,
  disabled,
}: {
  onResult: (text: string) => string | undefined;
  label?: string;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const take = (text: string) => {
    const message = onResult(text);
    if (message === undefined) setOpen(false);
    return message;
  };
  return (
    <>
      <button type="button" className="button small" onClick={() => setOpen(true)} disabled={disabled}>
        {label}
      </button>
      <Modal open={open} title={QR_MESSAGES.scanTitle} onClose={() => setOpen(false)}>
        {open ? (
          <Suspense fallback={<Spinner label="Opening the scanner" />}>
            <QrScanner onResult={take} />
          </Suspense>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Modal>
    </>
  );
}
