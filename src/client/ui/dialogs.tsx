import { DIALOG } from '../../shared/messages.ts';
import { Modal } from './modal.tsx';

export function SuccessDialog({
  open,
  message,
  onClose,
}: {
  open: boolean;
  message: string;
  onClose: () => void;
}) {
  return (
    <Modal open={open} title={DIALOG.successTitle} onClose={onClose} tone="success">
      <p>{message}</p>
      <div className="modal-actions">
        <button type="button" className="button primary" onClick={onClose}>
          {DIALOG.goBack}
        </button>
      </div>
    </Modal>
  );
}

export function ErrorDialog({ open, error, onClose }: { open: boolean; error: string; onClose: () => void }) {
  return (
    <Modal open={open} title={DIALOG.errorTitle} onClose={onClose} tone="error">
      <h3 className="modal-heading">{DIALOG.errorHeading}</h3>
      <p role="alert">{error}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose}>
          {DIALOG.close}
        </button>
      </div>
    </Modal>
  );
}

export function DeleteDialog({
  open,
  onCancel,
  onConfirm,
  note,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  note?: string;
}) {
  return (
    <Modal open={open} title={DIALOG.delete} onClose={onCancel} tone="warning">
      <p>{DIALOG.deleteQuestion}</p>
      {note ? <p className="muted">{note}</p> : null}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onCancel}>
          {DIALOG.goBack}
        </button>
        <button type="button" className="button danger" onClick={onConfirm}>
          {DIALOG.delete}
        </button>
      </div>
    </Modal>
  );
}
