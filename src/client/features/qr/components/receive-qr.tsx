import { useState } from 'react';
import { QR_SIZE_PX } from '../../../../shared/constants.ts';
import { memberQrText, QR_MESSAGES } from '../../../../shared/qr.ts';
import { Modal } from '../../../ui/modal.tsx';
import '../qr.css';
import { useQrCode } from '../../../ui/use-qr-code.ts';

/** The member's own code (their e-mail, in the format of shared/qr.ts), drawn once the dialog opens. */
function ReceiveCode({ email }: { email: string }) {
  const text = memberQrText(window.location.origin, email);
  const { url, failed } = useQrCode(text);
  return (
    <div className="receive-qr">
      {url ? (
        <img
          src={url}
          width={QR_SIZE_PX}
          height={QR_SIZE_PX}
          alt={`Your Receive QR code: ${email}`}
          data-qr-text={text}
        />
      ) : failed ? (
        <p className="muted">The QR code could not be drawn. Give your e-mail instead.</p>
      ) : (
        <div className="receive-qr-placeholder" role="status" aria-label="Drawing the QR code" />
      )}
      <p className="receive-qr-email">{email}</p>
      <p className="muted">{QR_MESSAGES.receiveHelp}</p>
    </div>
  );
}

/** A "Receive" button that shows the member's QR code in a dialog. */
export function ReceiveQrButton({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {QR_MESSAGES.receiveTitle}
      </button>
      <Modal open={open} title={QR_MESSAGES.receiveTitle} onClose={() => setOpen(false)}>
        {open ? <ReceiveCode email={email} /> : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Modal>
    </>
  );
}
