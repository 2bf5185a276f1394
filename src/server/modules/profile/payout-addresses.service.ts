import type { PayoutNetwork } from '../../../shared/payout-address.ts';
import { MEMBER_ADDRESS_HOLD_MS } from '../../../shared/profile.ts';
import type { Db } from '../../db/database.ts';
import { recordAddressChange } from './profile.repository.ts';

/**
 * Records that a payout address was set (or cleared). RULES.md: one the member saved is usable for
 * withdrawals 24 hours later (time to notice a stolen account's change in the e-mail); one an admin set
 * from the member's profile (support, audited) at once. The withdrawals issue reads usable_from.
 */
export async function recordPayoutAddressChange(
  trx: Db,
  change: { userId: string; network: PayoutNetwork; actorId: string; by: 'member' | 'admin'; now: Date },
): Promise<void> {
  const usableFrom =
    change.by === 'member' ? new Date(change.now.getTime() + MEMBER_ADDRESS_HOLD_MS) : change.now;
  await recordAddressChange(trx, {
    user_id: change.userId,
    network: change.network,
    changed_at: change.now.toISOString(),
    changed_by: change.actorId,
    changed_by_role: change.by,
    usable_from: usableFrom.toISOString(),
  });
}
