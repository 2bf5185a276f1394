import * as v from 'valibot';
import { DEPOSIT_STATUSES } from './enums.ts';
import { formatUsd } from './money.ts';
import { multiLineText } from './text.ts';
import { txHashSchema } from './tx-hash.ts';
import { amountSchema } from './wallets.ts';

export { DEPOSIT_STATUSES };

// Manual deposits (issue 16, RULES.md "Deposits", spec 7 "Deposits"): a member reports a payment they
// made (amount, transaction hash, optional screenshot); an admin approves it (the member's Active
// Wallet is credited the deposit's amount, once) or rejects it with a reason the member reads. The
// member (or an admin) may cancel a pending one. The server's routes and the client's forms share
// these schemas; the rules chosen are written in docs/rules.md "Manual deposits".

export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** The largest single manual deposit: a typo of a few extra digits is refused before an admin sees it. */
export const MAX_MANUAL_DEPOSIT_CENTS = 100_000_000;
/** Screenshots a member may upload in an hour. */
export const DEPOSIT_IMAGES_PER_HOUR = 20;

export const DEPOSIT_MESSAGES = {
  added: 'Deposit sent. An admin will check it and credit your Active Wallet.',
  duplicateHash: 'This transaction hash has already been sent for a deposit',
  txHashInvalid: 'A transaction hash is 0x followed by 64 hexadecimal characters',
  txHashRequired: 'Enter the transaction hash of your payment',
  amountTooLarge: `A manual deposit is at most ${formatUsd(MAX_MANUAL_DEPOSIT_CENTS)}`,
  imageUnknown: 'Upload the screenshot again: this image was not found',
  notFound: 'No deposit with this id',
  notPending: 'This deposit has already been decided or cancelled',
  mismatch: 'The amount and member do not match this deposit',
  statusInvalid: 'status is approved or rejected',
  reasonRequired: 'Give the member a reason of 3 to 500 characters',
  approved: 'Deposit approved: the amount was added to the member’s Active Wallet',
  rejected: 'Deposit rejected: the member sees your reason',
  cancelled: 'Deposit cancelled',
  /** Spec 8: what a failed add shows when the server gave neither an error nor a message. */
  addFailed: 'An unexpected error occurred',
  // The member's notifications
  approvedTitle: 'Deposit approved',
  approvedText: (amount: string) =>
    `Your manual deposit of ${formatUsd(amount)} was added to your Active Wallet.`,
  rejectedTitle: 'Deposit rejected',
  rejectedText: (amount: string, reason: string) =>
    `Your manual deposit of ${formatUsd(amount)} was not accepted. Reason: ${reason}`,
  cancelledByAdminTitle: 'Deposit cancelled',
  cancelledByAdminText: (amount: string) =>
    `Support cancelled your pending manual deposit of ${formatUsd(amount)}.`,
} as const;

const id = (message: string) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message));

export const depositTxHashSchema = txHashSchema({
  required: DEPOSIT_MESSAGES.txHashRequired,
  invalid: DEPOSIT_MESSAGES.txHashInvalid,
});

const reasonSchema = v.pipe(
  v.string(DEPOSIT_MESSAGES.reasonRequired),
  v.trim(),
  v.minLength(3, DEPOSIT_MESSAGES.reasonRequired),
  v.maxLength(500, DEPOSIT_MESSAGES.reasonRequired),
  multiLineText(),
);

/** POST /deposite/add (member): `image` is the name POST /deposite/images answered. */
export const manualDepositRequestSchema = v.object({
  amount: v.pipe(amountSchema, v.maxValue(MAX_MANUAL_DEPOSIT_CENTS, DEPOSIT_MESSAGES.amountTooLarge)),
  tx_hash: depositTxHashSchema,
  image: v.optional(v.pipe(v.string(DEPOSIT_MESSAGES.imageUnknown), v.trim(), v.maxLength(100))),
});
export type ManualDepositRequest = v.InferOutput<typeof manualDepositRequestSchema>;

/**
 * PUT /deposite/{id} (admin): the decision names the deposit's own amount and member (a mismatch is a
 * 409, so a decision made on a stale screen never credits something else). Rejecting needs a reason.
 * An admin cannot approve another amount: to credit a different one, reject with a reason.
 */
export const depositDecisionSchema = v.pipe(
  v.object({
    status: v.picklist(['approved', 'rejected'] as const, DEPOSIT_MESSAGES.statusInvalid),
    amount: amountSchema,
    user_id: id('user_id is required'),
    reason: v.optional(reasonSchema),
  }),
  v.forward(
    v.check(
      (input) => input.status !== 'rejected' || input.reason !== undefined,
      DEPOSIT_MESSAGES.reasonRequired,
    ),
    ['reason'],
  ),
);
export type DepositDecision = v.InferOutput<typeof depositDecisionSchema>;

export const depositIdParamsSchema = v.object({ id: id(DEPOSIT_MESSAGES.notFound) });

export const depositListQuerySchema = v.object({
  status: v.optional(v.picklist(DEPOSIT_STATUSES, 'status is pending, approved, rejected or cancelled')),
});
export type DepositListQuery = v.InferOutput<typeof depositListQuerySchema>;

/** A manual deposit as the API gives it; the member's names are for the admin's list. */
export const manualDepositSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  amount: v.string(),
  tx_hash: v.string(),
  /** Where the screenshot is served (to its member and admins), or null. */
  image_url: v.nullable(v.string()),
  status: v.picklist(DEPOSIT_STATUSES),
  reason: v.nullable(v.string()),
  created_at: v.string(),
  decided_at: v.nullable(v.string()),
  fullname: v.string(),
  username: v.string(),
  email: v.string(),
});
export type ManualDeposit = v.InferOutput<typeof manualDepositSchema>;

export const depositResultSchema = v.object({ message: v.string(), deposit: manualDepositSchema });
export type DepositResult = v.InferOutput<typeof depositResultSchema>;
export const depositListSchema = v.object({ deposits: v.array(manualDepositSchema) });
export type DepositList = v.InferOutput<typeof depositListSchema>;
export const depositDetailSchema = v.object({ deposit: manualDepositSchema });
export const depositImageResultSchema = v.object({ image: v.object({ name: v.string(), url: v.string() }) });
export type DepositImageResult = v.InferOutput<typeof depositImageResultSchema>;

export const DEPOSIT_STATUS_LABELS: Record<DepositStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

/** Spec 4 badge colours: approved green, pending yellow, rejected red, cancelled grey. */
export const DEPOSIT_BADGE: Record<DepositStatus, 'green' | 'yellow' | 'red' | 'grey'> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
  cancelled: 'grey',
};

/**
 * The ways a member adds money, in the order they are offered (docs/rules.md "Adding money"):
 * - `invoice`: the crypto payment page makes a payment request for an amount, paid from any wallet or
 *   exchange and credited by itself once paid. The server always has a payment provider.
 * - `on_chain`: USDT sent to the platform's deposit address from the member's own wallet, connected or
 *   with the hash pasted. Only when a deposit address is set.
 * - `manual`: a payment the member already made to one of the platform's published addresses (the deposit
 *   address or a QR link), reported with its hash for an admin to check. Only when there is such an address.
 */
export const ADD_MONEY_WAYS = ['invoice', 'on_chain', 'manual'] as const;
export type AddMoneyWay = (typeof ADD_MONEY_WAYS)[number];

export function addMoneyWays(setup: { depositAddress: string | null; qrLinks: number }): AddMoneyWay[] {
  const onChain = Boolean(setup.depositAddress);
  return ADD_MONEY_WAYS.filter(
    (way) => way === 'invoice' || (way === 'on_chain' ? onChain : onChain || setup.qrLinks > 0),
  );
}
