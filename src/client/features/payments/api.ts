import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import { PAYMENT_POLL_INTERVAL_MS } from '../../../shared/constants.ts';
import { formatCents } from '../../../shared/money.ts';
import {
  type adminPaymentListSchema,
  type adminPaymentSchema,
  type CreatePaymentInput,
  type currenciesSchema,
  isFinalPaymentStatus,
  type ManualCreditInput,
  type minAmountSchema,
  PAY_CURRENCY,
  PAYMENT_MESSAGES,
  type Payment,
  type PaymentStatus,
  type paymentListSchema,
} from '../../../shared/payments.ts';
import { ApiError, api } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

export type Currency = v.InferOutput<typeof currenciesSchema>['currencies'][number];
export type AdminPayment = v.InferOutput<typeof adminPaymentSchema>;
export type AdminPaymentList = v.InferOutput<typeof adminPaymentListSchema>;
type PaymentList = v.InferOutput<typeof paymentListSchema>;

const path = (...segments: string[]) => `/payments/${segments.map(encodeURIComponent).join('/')}`;

/**
 * Spec 8: a body without a currencies array reads "Invalid response format from currencies API", any
 * other failure "Failed to fetch currencies"; the screen then offers an empty list.
 */
export const currenciesQuery = queryOptions({
  queryKey: ['payments', 'currencies'],
  queryFn: async (): Promise<Currency[]> => {
    let body: unknown;
    try {
      body = await api<unknown>('GET', path('currencies'));
    } catch {
      throw new Error(PAYMENT_MESSAGES.currenciesFailed);
    }
    const currencies = (body as { currencies?: unknown } | undefined)?.currencies;
    if (!Array.isArray(currencies)) throw new Error(PAYMENT_MESSAGES.currenciesInvalid);
    return currencies as Currency[];
  },
  staleTime: 5 * 60_000,
});

/** Spec 9: only BEP20 USDT is offered, matched case-insensitively. */
export const offeredCurrencies = (currencies: readonly Currency[] | undefined) =>
  (currencies ?? []).filter((c) => c.code.toLowerCase() === PAY_CURRENCY);

export const minAmountQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: ['payments', 'min-amount', from, to],
    queryFn: () => api<v.InferOutput<typeof minAmountSchema>>('GET', path('min-amount', from, to)),
    staleTime: 5 * 60_000,
  });

const isFinalData = (payment: Payment | undefined) =>
  payment !== undefined && isFinalPaymentStatus(payment.payment_status);

/**
 * Spec 4: checked at once, then every 10 s until a final status. Polling pauses while the page is hidden
 * (refetchIntervalInBackground false: TanStack Query's focus manager follows visibilitychange), and
 * becoming visible again checks at once ('always', whatever the data's age).
 */
export const paymentStatusQuery = (paymentId: string) =>
  queryOptions({
    queryKey: ['payments', 'status', paymentId],
    queryFn: () => api<Payment>('GET', path('payment-status', paymentId)),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchInterval: (query) => (isFinalData(query.state.data) ? false : PAYMENT_POLL_INTERVAL_MS),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: (query) => (isFinalData(query.state.data) ? false : 'always'),
    // A poll comes again in 10 s; a retry in between would only add load.
    retry: false,
  });

export const myPaymentsQuery = queryOptions({
  queryKey: ['payments', 'mine'],
  queryFn: () => api<PaymentList>('GET', path('mine')),
  staleTime: 0,
});

export type AdminPaymentFilter = { status?: PaymentStatus; page: number; limit: number };

// Not under the ['admin'] key: that one is the persisted admin session, and only sessions may reach localStorage.
export const allPaymentsQuery = ({ status, page, limit }: AdminPaymentFilter) =>
  queryOptions({
    queryKey: ['payments', 'all', { status: status ?? null, page, limit }],
    queryFn: () => {
      const query = new URLSearchParams({ page: String(page), limit: String(limit) });
      if (status) query.set('status', status);
      return api<AdminPaymentList>('GET', `${path('all')}?${query}`);
    },
    staleTime: 0,
  });

/**
 * Spec 8: a refusal shows the server's error; anything else (no answer at all) "Failed to create payment".
 * One Idempotency-Key per submission: the CSRF retry inside api() resends it, so one press makes one invoice.
 */
export async function createPayment(input: CreatePaymentInput, memberId: string): Promise<Payment> {
  try {
    return await api<Payment>(
      'POST',
      path('create-payment'),
      {
        // Spec 5: the amount is sent as a number; "12.30" from the cents, so no float arithmetic on the way.
        price_amount: Number(formatCents(input.price_amount)),
        price_currency: input.price_currency,
        pay_currency: input.pay_currency,
        id: memberId,
      },
      { 'Idempotency-Key': newIdempotencyKey() },
    );
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new Error(PAYMENT_MESSAGES.createFailed);
  }
}

/** Sandbox only: pretends the payer sent `amount` (default the full pay_amount). */
export function simulateSandboxPay(paymentId: string, amount?: string): Promise<Payment> {
  return api<Payment>('POST', path('sandbox', paymentId, 'pay'), amount === undefined ? {} : { amount });
}

export function creditByHand(
  paymentId: string,
  input: ManualCreditInput,
): Promise<{ message: string; payment: Payment }> {
  return api(
    'POST',
    path(paymentId, 'manual-credit'),
    { ...input, amount: formatCents(input.amount) },
    {
      'Idempotency-Key': newIdempotencyKey(),
    },
  );
}

/** A payment changed (paid, credited): every list of payments and every balance shown is out of date. */
export async function refreshAfterPayment(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['payments', 'mine'], ['payments', 'all'], ['wallet'], ['ledger']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/** What to show when a status check fails (spec 8): the server's error, else the spec's fallback. */
export const statusErrorText = (error: unknown) =>
  error instanceof ApiError ? error.display : PAYMENT_MESSAGES.statusFailed;

/** Spec 2: the amount paid is actually_paid, else pay_amount. */
export const amountPaid = (payment: Payment) => payment.actually_paid ?? payment.pay_amount;

/**
 * Half of a crypto amount ("12.5" -> "6.25"), in integer units of 1e-8 (the sandbox's precision):
 * the default of the sandbox's partial payment. Empty when the input is not a plain decimal.
 */
export function halfOf(amount: string): string {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(amount.trim());
  if (!match) return '';
  const units = BigInt(match[1] ?? '0') * 100_000_000n + BigInt((match[2] ?? '').padEnd(8, '0'));
  const half = units / 2n;
  const whole = half / 100_000_000n;
  const fraction = (half % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
