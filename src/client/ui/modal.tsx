import { type ReactNode, useEffect, useId, useRef } from 'react';

// The spec's dialogs open at once and close by their button, the close icon, Escape or a click outside.
// The native <dialog> gives focus trapping and Escape; a click on the backdrop lands on the dialog itself.

type ModalProps = {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  tone?: 'success' | 'error' | 'warning';
};

export function Modal({ open, title, onClose, children, tone }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`modal modal-${tone ?? 'plain'}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className="modal-body">
        <button type="button" className="modal-close" aria-label="Close dialog" onClick={onClose}>
          ×
        </button>
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
