import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import { formatCents } from '../../../shared/money.ts';
import {
  retryCanHelp,
  TRANSFER_MESSAGES,
  type Transfer,
  type TransferDecision,
  type TransferHistory,
  type TransferLimits,
  type TransferRequest,
  type transferListSchema,
  type transferResultSchema,
} from '../../../shared/transfers.ts';
import type { singleUserSchema } from '../../../shared/users.ts';
import type { emailUserSchema, MemberBalance } from '../../../shared/wallets.ts';
import { ApiError, api, errorText, noAnswerText } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

export type TransferResult = v.InferOutput<typeof transferResultSchema>;
export type TransferList = v.InferOutput<typeof transferListSchema>;
export type Recipient = v.InferOutput<typeof emailUserSchema>['emailuser'];
type SingleUser = v.InferOutput<typeof singleUserSchema>;

/** The member's standing as the server holds it now (the session's copy can be a minute old). */
export const memberStandingQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['users', memberId, 'standing'],
    queryFn: async () => {
      const { singleuser } = await api<SingleUser>('GET', `/users/${encodeURIComponent(memberId)}`);
      return { status: singleuser.status, is_active: singleuser.is_active };
    },
    staleTime: 0,
  });

/** An answer that came from the server (whatever http.ts makes of a request that got none). */
const answered = (error: unknown): error is ApiError => error instanceof ApiError && error.status >= 100;

/**
 * Spec 9: a transfer call's error is the server's error field, else its message, else "Something went
 * wrong"; a request that got no answer says the latter, never the browser's "Failed to fetch".
 */
export const transferErrorText = (error: unknown) =>
  answered(error) ? error.display : TRANSFER_MESSAGES.fallback;

/** Why a transfer failed, and whether sending it again can help (see retryCanHelp). */
export const transferFailure = (error: unknown) => ({
  reason: transferErrorText(error),
  retry: retryCanHelp(answered(error) ? error.status : undefined),
});

/**
 * Why the history did not load. A non-OK answer: words saying what to do (errorText), then the
 * specification's raise for the history view, "HTTP error! status: {code}", as the detail. No answer at all: the specification's fallback for transfer
 * calls, "Something went wrong", then whether the device is offline or the server did not answer.
 */
export const loadErrorText = (error: unknown): { words: string; detail: string } =>
  answered(error)
    ? { words: errorText(error), detail: `HTTP error! status: ${error.status}` }
    : { words: TRANSFER_MESSAGES.fallback, detail: noAnswerText() };

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
  queryFn: () => api<MemberBalance>('GET', '/wallet/balance'),
  staleTime: 0,
  networkMode: 'offlineFirst',
});

/** The daily limit and review threshold in force (the admin's settings) and what is left of today. */
export const transferLimitsQuery = queryOptions({
  queryKey: ['transfers', 'limits'],
  queryFn: () => api<TransferLimits>('GET', '/transfer/limits'),
  staleTime: 0,
});

export const pendingTransfersQuery = queryOptions({
  queryKey: ['transfers', 'pending'],
  queryFn: () => api<TransferList>('GET', '/transfer/list?status=pending&limit=100'),
  staleTime: 0,
});

/** An e-mail has an @; anything else typed is a username. */
export const isEmailLookup = (typed: string) => typed.includes('@');

/** The recipient by e-mail or username (GET /users); the e-mail comes back only when it was typed. */
export async function findRecipient(typed: string): Promise<Recipient> {
  const by = isEmailLookup(typed) ? 'email' : 'username';
  const { emailuser } = await api<v.InferOutput<typeof emailUserSchema>>(
    'GET',
    `/users?${by}=${encodeURIComponent(typed)}`,
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
