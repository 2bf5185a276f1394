import * as v from 'valibot';
import type { WithdrawalKind, WithdrawalStatus } from '../../../shared/withdrawals.ts';

// The admin screens' filters live in the address. A route's validateSearch is loaded with the app's
// entry (only its component is split off), so this file imports nothing but types from the shared
// withdrawals module: importing its values would put every schema and text of it on the member
// dashboard's cold load (tests/e2e/member-budget.spec.ts).

// Every status once: the Record fails to compile when the shared list gains or loses one.
const STATUS_SET: Record<WithdrawalStatus, true> = {
  pending: true,
  approved: true,
  rejected: true,
  cancelled: true,
};
const STATUSES = Object.keys(STATUS_SET) as WithdrawalStatus[];

// Every kind once, as the statuses.
const KIND_SET: Record<WithdrawalKind, true> = { income: true, roi: true, principal: true, compound: true };
const KINDS = Object.keys(KIND_SET) as WithdrawalKind[];

/**
 * `?status=&kind=&open=` of the withdrawal queue (`open`: the request whose panel is open, so a reload
 * or a shared link shows it too); anything else in the address is dropped.
 */
export const adminWithdrawalSearch = v.object({
  status: v.fallback(v.optional(v.picklist(STATUSES)), undefined),
  kind: v.fallback(v.optional(v.picklist(KINDS)), undefined),
  open: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
});
