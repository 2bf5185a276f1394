import { Link } from '@tanstack/react-router';
import { TRANSFER_MESSAGES } from '../../../../shared/transfers.ts';
import type { ACTIVE_FLAGS, USER_STATUSES } from '../../../../shared/users.ts';

export type Standing = { status: (typeof USER_STATUSES)[number]; is_active: (typeof ACTIVE_FLAGS)[number] };
export type Refusal = 'blocked' | 'inactive';

/** RULES.md: only activated (is_active), unblocked members send. The server refuses the rest; the form says so first. */
export const sendRefusal = (standing: Standing): Refusal | null =>
  standing.status === 'block' ? 'blocked' : standing.is_active !== 'active' ? 'inactive' : null;

/**
 * Above the form, before anything is typed: why this member cannot send, and the one thing to do about
 * it today (invest, or ask Support).
 */
export function SenderNotice({ id, refusal }: { id: string; refusal: Refusal }) {
  const blocked = refusal === 'blocked';
  return (
    <div className="transfer-notice" role="status" id={id} data-testid="sender-notice">
      <h3>{blocked ? TRANSFER_MESSAGES.blockedTitle : TRANSFER_MESSAGES.cannotSendTitle}</h3>
      <p>{blocked ? TRANSFER_MESSAGES.blockedNotice : TRANSFER_MESSAGES.inactiveNotice}</p>
      <Link to="/user/query/create" className="button">
        {TRANSFER_MESSAGES.contactSupport}
      </Link>
    </div>
  );
}
