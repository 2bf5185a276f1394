import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DIALOG } from '../../../../shared/messages.ts';
import { errorText } from '../../../lib/http.ts';
import { Modal } from '../../../ui/modal.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { deleteMember, deletionPreviewQuery } from '../api.ts';

export type DeleteTarget = { id: string; fullname: string; email: string };
export type DeleteOutcome = { message: string; outcome: 'erased' | 'deactivated' };

/**
 * The spec's delete confirmation ("Are you sure you want to delete this item?", Go back, Delete), plus
 * what will happen, asked from the server before the admin confirms: a member with money or history is
 * blocked and deactivated rather than erased, so no ledger row ever loses its owner.
 */
export function DeleteMemberDialog({
  member,
  onClose,
  onDone,
  onError,
}: {
  member: DeleteTarget | null;
  onClose: () => void;
  onDone: (result: DeleteOutcome) => void;
  onError: (text: string) => void;
}) {
  const preview = useQuery({ ...deletionPreviewQuery(member?.id ?? ''), enabled: member !== null });
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (!member) return;
    setBusy(true);
    try {
      onDone(await deleteMember(member.id));
    } catch (error) {
      onError(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  const outcome = preview.data?.outcome;
  return (
    <Modal open={member !== null} title={DIALOG.delete} onClose={onClose} tone="warning">
      <p>{DIALOG.deleteQuestion}</p>
      {member ? (
        <p>
          <strong>{member.fullname}</strong> <span className="muted">{member.email}</span>
        </p>
      ) : null}
      <div data-testid="deletion-outcome">
        {preview.isPending ? (
          <Spinner label="Checking the member’s money and history" />
        ) : preview.error ? (
          <p role="alert">{errorText(preview.error)}</p>
        ) : outcome === 'erase' ? (
          <p>This member has no money and no history: the account will be erased for good.</p>
        ) : (
          <>
            <p>
              <strong>This member will not be erased.</strong> They have money or history, so the account will
              be blocked and deactivated instead, and every record stays:
            </p>
            <ul>
              {preview.data?.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose} disabled={busy}>
          {DIALOG.goBack}
        </button>
        <button type="button" className="button danger" onClick={confirm} disabled={busy || !outcome}>
          {DIALOG.delete}
        </button>
      </div>
    </Modal>
  );
}
