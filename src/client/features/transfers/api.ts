import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import { formatCents } from '../../../shared/money.ts';
import type {
  Transfer,
  TransferDecision,
  TransferHistory,
  TransferRequest,
  transferListSchema,
  transferResultSchema,
} from '../../../shared/transfers.ts';
import type { emailUserSchema, WalletBalance } from '../../../shared/wallets.ts';
import { api } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

export type TransferResult = v.InferOutput<typeof transferResultSchema>;
export type TransferList = v.InferOutput<typeof transferListSchema>;
export type Recipient = v.InferOutput<typeof emailUserSchema>['emailuser'];

/** A member's transfers and statistics (spec 3 "Transfer history response"); re-asked on every visit. */
export const transferHistoryQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['transfers', 'member', memberId],
    queryFn: () => api<TransferHistory>('GET', `/transfer/byid/${encodeURIComponent(memberId)}`),
    staleTime: 0,
    // Asked even offline: the service worker answers from the member's offline copy.
    networkMode: 'offlineFirst',
  });

/** The form's source balances: what each wallet can send now. */
export const availableBalanceQuery = queryOptions({
  queryKey: ['wallet', 'balance'],
  queryFn: () => api<WalletBalance>('GET', '/wallet/balance'),
  staleTime: 0,
  networkMode: 'offlineFirst',
});

export const pendingTransfersQuery = queryOptions({
  queryKey: ['transfers', 'pending'],
  queryFn: () => api<TransferList>('GET', '/transfer/list?status=pending&limit=100'),
  staleTime: 0,
});

export async function findRecipient(email: string): Promise<Recipient> {
  const { emailuser } = await api<v.InferOutput<typeof emailUserSchema>>(
    'GET',
    `/users?email=${encodeURIComponent(email)}`,
  );
  return emailuser;
}

/** One key per submission: the CSRF retry inside api() resends it, so one press never sends money twice. */
export function sendTransfer(input: TransferRequest): Promise<TransferResult> {
  return api<TransferResult>(
    'POST',
    '/transfer/touser',
    { ...input, amount: formatCents(input.amount) },
    { 'Idempotency-Key': newIdempotencyKey() },
  );
}

export function decideTransfer(id: string, decision: TransferDecision): Promise<TransferResult> {
  return api<TransferResult>('PUT', `/transfer/${encodeURIComponent(id)}/status`, decision, {
    'Idempotency-Key': newIdempotencyKey(),
  });
}

/** After money moved: every list, balance and ledger check shown is out of date. */
export async function refreshAfterTransfer(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['transfers'], ['wallet'], ['ledger']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

export const transferParty = (transfer: Transfer, direction: 'sent' | 'received') =>
  direction === 'sent'
    ? { name: transfer.recipient_name, email: transfer.recipient_email }
    : { name: transfer.sender_name, email: transfer.sender_email };
