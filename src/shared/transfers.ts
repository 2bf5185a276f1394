import * as v from 'valibot';
import { MAX_TRANSFER_AMOUNT_CENTS, MAX_TRANSFER_DESCRIPTION_LENGTH } from './constants.ts';
import { DASHBOARD_TABS, HISTORY_TABS } from './enums.ts';
import { formatUsd } from './money.ts';
import { multiLineText, oneLineText } from './text.ts';
import { amountSchema, WALLET_MESSAGES, WALLETS } from './wallets.ts';

export { DASHBOARD_TABS, HISTORY_TABS };

// Member-to-member transfers (spec 2 "Transfer form" / "Transfer dashboard", spec 5, RULES.md
// "Internal transfers"). The form and the server validate with the same schema.

/**
 * A limit in the one money format: "$25,000.00". At or above the review threshold a
 * transfer waits for an admin; a member sends at most the daily limit to others per UTC day: both are
 * settings (shared/settings.ts), so the messages that name them are functions of their value.
 */
export const limitText = (cents: number): string => formatUsd(cents);

export const TRANSFER_MESSAGES = {
  amountMax: 'Amount cannot exceed $10,000',
  fromRequired: 'Please select a source account',
  toRequired: 'Please select a destination account',
  descriptionMax: 'Description cannot exceed 200 characters',
  recipientRequired: 'Enter the email of a member to send to',
  sameWallet: 'Choose a different destination wallet when sending to yourself',
  searching: 'Searching user...',
  processing: 'Processing Transfer...',
  successTitle: 'Transfer Completed!',
  successText: 'The money was transferred successfully.',
  failedTitle: 'Transfer Failed',
  failedText: 'Something went wrong. Please try again.',
  sent: 'Transfer completed',
  pendingReview: (thresholdCents: number) =>
    `Transfer submitted: amounts of ${limitText(thresholdCents)} or more wait for an admin review`,
  notYourAccount: 'You can only send money from your own account',
  senderInactive: 'Only activated accounts can send transfers',
  recipientNotFound: 'Recipient not found',
  recipientBlocked: 'This member cannot receive transfers',
  dailyLimit: (limitCents: number) =>
    `This transfer would exceed your daily transfer limit of ${limitText(limitCents)}`,
  notPending: 'This transfer is not waiting for review',
  approved: 'Transfer approved',
  rejected: 'Transfer rejected and the money returned to the sender',
  title: 'Transfer Dashboard',
  subtitle: 'Manage and track your money transfers',
  loading: 'Loading transfers...',
  errorTitle: 'Error Loading Transfers',
  tryAgain: 'Try Again',
  noActivity: 'No transfer activity found',
  noOutgoing: 'No outgoing transfers found',
  noIncoming: 'No incoming transfers found',
  userIdRequired: 'User ID is required',
  /** Spec 9: what a transfer screen says when no answer came at all (never the browser's own words). */
  fallback: 'Something went wrong',
  send: 'Send Transfer',
  sendMoney: 'Send money',
  reviewTitle: 'Review transfer',
  confirm: 'Confirm',
  edit: 'Edit',
  pendingTitle: 'Transfer Pending Review',
  cannotSendTitle: 'Your account cannot send money yet',
  inactiveNotice:
    'Only activated accounts can send transfers, and yours is not activated yet. Your first investment in a plan activates it; if you have invested and it is still not activated, ask Support.',
  blockedTitle: 'Your account cannot send money',
  blockedNotice: 'Your account is blocked, so it cannot send or receive transfers. Ask Support why.',
  contactSupport: 'Ask Support',
  reviewHeld: (thresholdCents: number) =>
    `Amounts of ${limitText(thresholdCents)} or more wait for an admin review before they arrive.`,
  limits: (limit: string, left: string, threshold: string) =>
    `Daily limit ${limit} to other members: ${left} left today. Transfers of ${threshold} or more wait for an admin review.`,
  valuesKept: 'What you typed is kept: the form comes back with it and your current balances.',
} as const;

/** The review step's one line: "Send $25.50 to Bob Stone (bob_ux) from Active Wallet". */
export const reviewSummary = (amount: string, name: string, username: string, fromLabel: string) =>
  `Send ${amount} to ${name} (${username}) from ${fromLabel}`;

/**
 * Whether sending the same transfer again can succeed: no answer at all (status undefined), a server
 * fault, a timeout or too many attempts. Any other refusal is a rule (balance, limit, an inactive
 * account, a blocked recipient) and the same request would be refused again.
 */
export const retryCanHelp = (status: number | undefined) =>
  status === undefined || status < 100 || status >= 500 || status === 408 || status === 429;

export const TRANSFER_STATUSES = ['pending', 'completed', 'failed'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Spec 4: completed green, pending yellow, failed red, anything else grey. */
export const TRANSFER_BADGE: Record<string, 'green' | 'yellow' | 'red'> = {
  completed: 'green',
  pending: 'yellow',
  failed: 'red',
};
export const badgeColour = (status: string) => TRANSFER_BADGE[status] ?? 'grey';

const requiredText = (message: string) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message));

/** Spec 3 "Transfer request": {userto_id, user_id, amount, from, to, desc}. user_id, when sent, must be the session's member. */
export const transferRequestSchema = v.object({
  userto_id: requiredText(TRANSFER_MESSAGES.recipientRequired),
  user_id: v.optional(v.string()),
  amount: v.pipe(amountSchema, v.maxValue(MAX_TRANSFER_AMOUNT_CENTS, TRANSFER_MESSAGES.amountMax)),
  from: v.picklist(WALLETS, TRANSFER_MESSAGES.fromRequired),
  to: v.picklist(WALLETS, TRANSFER_MESSAGES.toRequired),
  desc: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(MAX_TRANSFER_DESCRIPTION_LENGTH, TRANSFER_MESSAGES.descriptionMax),
      oneLineText(),
    ),
  ),
});
export type TransferRequest = v.InferOutput<typeof transferRequestSchema>;

/**
 * The form's schema: the request plus the checks the form can make before sending (spec 5: "not
 * above the balance of the chosen source account"; a self-transfer needs two different wallets).
 * The server makes both checks again, atomically for the balance.
 */
export function transferFormSchema(context: { availableCents: Record<string, number>; selfId?: string }) {
  return v.pipe(
    transferRequestSchema,
    v.forward(
      v.check(
        (input) => input.amount <= (context.availableCents[input.from] ?? 0),
        WALLET_MESSAGES.insufficient,
      ),
      ['amount'],
    ),
    v.forward(
      v.check(
        (input) => input.userto_id !== context.selfId || input.from !== input.to,
        TRANSFER_MESSAGES.sameWallet,
      ),
      ['to'],
    ),
  );
}

/** Spec 3 "Transfer", plus from and to (API.md). */
export const transferSchema = v.object({
  id: v.string(),
  amount: v.string(),
  description: v.nullable(v.string()),
  created_at: v.string(),
  status: v.picklist(TRANSFER_STATUSES),
  sender_name: v.string(),
  sender_email: v.string(),
  recipient_name: v.string(),
  recipient_email: v.string(),
  from: v.picklist(WALLETS),
  to: v.picklist(WALLETS),
});
export type Transfer = v.InferOutput<typeof transferSchema>;

export const transferResultSchema = v.object({ message: v.string(), transfer: transferSchema });

/** Change against the previous 30 days in percent (one decimal), or null when there is nothing to compare. */
const trendSchema = v.nullable(v.number());

/** Spec 3 "Transfer history response" stats, plus the real trend figures of RULES.md. */
export const transferStatsSchema = v.object({
  total_outgoing: v.number(),
  total_incoming: v.number(),
  total_sent_amount: v.string(),
  total_received_amount: v.string(),
  pending_outgoing: v.number(),
  pending_incoming: v.number(),
  completed_outgoing: v.number(),
  completed_incoming: v.number(),
  trends: v.object({ sent: trendSchema, received: trendSchema, transfers: trendSchema }),
});
export type TransferStats = v.InferOutput<typeof transferStatsSchema>;

export const transferHistorySchema = v.object({
  transfers: v.object({
    outgoing: v.array(transferSchema),
    incoming: v.array(transferSchema),
    all: v.array(transferSchema),
  }),
  stats: transferStatsSchema,
});
export type TransferHistory = v.InferOutput<typeof transferHistorySchema>;

export const transferIdParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });

export const transferListQuerySchema = v.object({
  status: v.optional(v.picklist(TRANSFER_STATUSES, 'Choose pending, completed or failed')),
  page: v.optional(
    v.pipe(v.string(), v.toNumber(), v.integer('page must be a whole number'), v.minValue(1)),
    '1',
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.toNumber(),
      v.integer('limit must be a whole number'),
      v.minValue(1),
      v.maxValue(200),
    ),
    '50',
  ),
});
export const transferListSchema = v.object({
  alltransfer: v.array(transferSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});

/** An admin's decision on a pending transfer. */
export const transferDecisionSchema = v.object({
  status: v.picklist(['completed', 'failed'], 'Choose completed or failed'),
  reason: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(500, 'A reason has at most 500 characters'), multiLineText()),
  ),
});
export type TransferDecision = v.InferOutput<typeof transferDecisionSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The Transfer Dashboard's trend: the last 30 days against the 30 before them. The spec's original
 * showed fixed figures; RULES.md wants real ones, or nothing (null) when the earlier period is empty.
 */
export function trendPercent(
  items: readonly { created_at: string; cents: number }[],
  now: Date,
): number | null {
  const end = now.getTime();
  let current = 0;
  let previous = 0;
  for (const item of items) {
    const age = end - Date.parse(item.created_at);
    if (age < 0) continue;
    if (age < 30 * DAY_MS) current += item.cents;
    else if (age < 60 * DAY_MS) previous += item.cents;
  }
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/**
 * The tabs of /user/transfer and /user/transfer-history, kept in the address. Here rather than beside
 * their screens: the routes validate the address with them, and a route's validation is in the app's
 * main bundle, so importing them from a screen would send that screen to every visit.
 */
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
export type HistoryTab = (typeof HISTORY_TABS)[number];

/** GET /transfer/limits (member): the limits in force and what is left of today's (UTC). */
export const transferLimitsSchema = v.object({
  daily_limit: v.string(),
  review_threshold: v.string(),
  sent_today: v.string(),
  left_today: v.string(),
});
export type TransferLimits = v.InferOutput<typeof transferLimitsSchema>;
