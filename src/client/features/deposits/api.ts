import { type QueryClient, queryOptions } from '@tanstack/react-query';
import {
  DEPOSIT_MESSAGES,
  type DepositDecision,
  type DepositList,
  type DepositResult,
  type DepositStatus,
  type ManualDepositRequest,
} from '../../../shared/deposits.ts';
import { formatCents } from '../../../shared/money.ts';
import { ApiError, api } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { uploadImage } from '../../lib/upload.ts';

// Manual deposits (spec 7 "Deposits"; the spec's path spelling "deposite" is the server's).

export const myDepositsQuery = queryOptions({
  queryKey: ['deposits', 'mine'],
  queryFn: () => api<DepositList>('GET', '/deposite/list'),
  staleTime: 0,
});

// Not under the ['admin'] key: that one is the persisted admin session.
export const allDepositsQuery = (status: DepositStatus | undefined) =>
  queryOptions({
    queryKey: ['deposits', 'all', { status: status ?? null }],
    queryFn: () => api<DepositList>('GET', `/deposite/list${status ? `?status=${status}` : ''}`),
    staleTime: 0,
  });

/**
 * Uploads the screenshot (if any), then sends the deposit. One Idempotency-Key per press: the CSRF
 * retry inside api() resends it, so one press makes one deposit.
 */
export async function addManualDeposit(input: ManualDepositRequest, screenshot: File | null) {
  const image = screenshot ? (await uploadImage('/deposite/images', screenshot)).name : undefined;
  return api<DepositResult>(
    'POST',
    '/deposite/add',
    { amount: formatCents(input.amount), tx_hash: input.tx_hash, ...(image ? { image } : {}) },
    { 'Idempotency-Key': newIdempotencyKey() },
  );
}

/** Spec 8: a failed add shows the server's error, else its message, else "An unexpected error occurred". */
export function addErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.body.error || error.body.message || DEPOSIT_MESSAGES.addFailed;
  return DEPOSIT_MESSAGES.addFailed;
}

export const decideDeposit = (id: string, decision: DepositDecision) =>
  api<DepositResult>(
    'PUT',
    `/deposite/${encodeURIComponent(id)}`,
    { ...decision, amount: formatCents(decision.amount) },
    { 'Idempotency-Key': newIdempotencyKey() },
  );

export const cancelDeposit = (id: string) =>
  api<DepositResult>('DELETE', `/deposite/${encodeURIComponent(id)}`);

/** A deposit changed: its lists, and (after an approval) every balance shown, are out of date. */
export async function refreshAfterDeposit(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['deposits'], ['wallet'], ['ledger']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
