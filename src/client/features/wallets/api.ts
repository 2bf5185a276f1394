import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import { formatCents } from '../../../shared/money.ts';
import type {
  AdjustmentInput,
  adjustmentResultSchema,
  emailUserSchema,
  MemberBalance,
  Reconciliation,
} from '../../../shared/wallets.ts';
import { api } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

export type EmailUser = v.InferOutput<typeof emailUserSchema>['emailuser'];
export type AdjustmentResult = v.InferOutput<typeof adjustmentResultSchema>;

/** The signed-in member's available balances. Money changes behind the member's back: always re-asked on a visit. */
export const walletBalanceQuery = queryOptions({
  queryKey: ['wallet', 'balance'],
  queryFn: () => api<MemberBalance>('GET', '/wallet/balance'),
  staleTime: 0,
  // Asked even offline: the service worker answers from the member's offline copy.
  networkMode: 'offlineFirst',
});

// Not under the ['admin'] key: that one is the persisted admin session, and only sessions may reach localStorage.
export const reconciliationQuery = queryOptions({
  queryKey: ['ledger', 'reconciliation'],
  queryFn: () => api<Reconciliation>('GET', '/ledger/reconciliation'),
  staleTime: 0,
});

export async function findUserByEmail(email: string): Promise<EmailUser> {
  const { emailuser } = await api<v.InferOutput<typeof emailUserSchema>>(
    'GET',
    `/users?email=${encodeURIComponent(email)}`,
  );
  return emailuser;
}

/**
 * One call per form submission, with a key of its own: the CSRF retry inside api() resends the same key,
 * so a submission can never credit twice, while a second submission is a second adjustment on purpose.
 */
export function applyAdjustment(input: AdjustmentInput): Promise<AdjustmentResult> {
  return api<AdjustmentResult>(
    'POST',
    '/admin/adjustments',
    { ...input, amount: formatCents(input.amount) },
    { 'Idempotency-Key': newIdempotencyKey() },
  );
}

/** After an adjustment: the counts, the ledger check and any balance shown are out of date. */
export async function refreshAfterAdjustment(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['users'], ['ledger'], ['wallet']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
