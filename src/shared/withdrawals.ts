import * as v from 'valibot';
import { verifyCodeSchema } from './account.ts';
import { formatPercent, formatUsd } from './money.ts';
import { multiLineText } from './text.ts';
import { txHashSchema } from './tx-hash.ts';
import { amountSchema } from './wallets.ts';

// Money out (issue 16, RULES.md "Withdrawals", API.md "Withdrawals"): four kinds of request, each
// holding its whole amount in the ledger at once until an admin approves (the hold is posted) or
// rejects it, or the member cancels it (the hold is voided). The form and the server share these schemas.

export const WITHDRAWAL_KINDS = ['income', 'roi', 'principal', 'compound'] as const;
export type WithdrawalKind = (typeof WITHDRAWAL_KINDS)[number];
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/**
 * The fee of a request: `feeBp` basis points of the amount (the Settings screen's withdrawal fee,
 * 5% = 500 by default), rounded to the nearest cent (half up), in integer cents. Compound pays nothing
 * out, so it has no fee. The net amount is the amount less the fee.
 */
export function withdrawalFeeCents(kind: WithdrawalKind, amountCents: number, feeBp: number): number {
  if (kind === 'compound') return 0;
  return Math.floor((amountCents * feeBp + 5_000) / 10_000);
}

/** "5.00" -> "5", "2.50" -> "2.5": a percent as people write it. */

export const WITHDRAWAL_LABELS: Record<WithdrawalKind, string> = {
  income: 'Income withdrawal',
  roi: 'ROI withdrawal',
  principal: 'Principal withdrawal',
  compound: 'Compound',
};

/** What each kind does, shown before the member sends it, with the minimum and fee in force. */
export function withdrawalRulesText(
  kind: WithdrawalKind,
  { minimum, fee_percent }: { minimum: string; fee_percent: string },
): string {
  const fee = `a ${formatPercent(fee_percent)} fee is taken from`;
  switch (kind) {
    case 'income':
      return `From your Income Working balance to your saved payout address. Minimum ${formatUsd(minimum)}; ${fee} the amount.`;
    case 'roi':
      return `The ROI income one investment has paid you and you have not withdrawn yet, from your Income Working balance. Minimum ${formatUsd(minimum)}; ${fee} the amount.`;
    case 'principal':
      return `The whole principal of an investment that has finished earning (after its last ROI day). ${fee[0]?.toUpperCase()}${fee.slice(1)} it.`;
    case 'compound':
      return 'Turns Income Working money into a new investment in a plan instead of paying it out. No fee; the plan minimum and maximum apply.';
  }
}

export const WITHDRAWAL_MESSAGES = {
  requested: 'Withdrawal request sent. The amount is held from your balance until an admin decides.',
  compoundRequested: 'Compound request sent. The amount is held from your balance until an admin decides.',
  minimum: (minimum: string) => `The minimum withdrawal is ${formatUsd(minimum)}`,
  netsNothing: (fee: string) => `After the ${formatUsd(fee)} fee this withdrawal would pay out nothing`,
  insufficient: 'Your Income Working balance is too low for this withdrawal',
  userIdInvalid: 'user_id is a member id of at most 100 characters',
  openRequest:
    'You already have a withdrawal request waiting. Cancel it or wait for its decision before asking again.',
  emailUnverified: 'Verify your e-mail address on your profile before withdrawing',
  noAddress: 'Save a BEP20 or TRC20 payout address on your profile before withdrawing',
  addressWaiting: (when: string) =>
    `Your payout address was changed recently: withdrawals can use it from ${when} (24 hours after the change)`,
  networkNotSet: 'You have no saved payout address on this network',
  investmentNotFound: 'No investment of yours with this id',
  roiTooMuch: (left: string) => `This investment has ${formatUsd(left)} of ROI income left to withdraw`,
  notMatured: 'This investment is still earning: its principal can be withdrawn after its last ROI day',
  principalTaken: 'The principal of this investment has already been withdrawn or requested',
  principalPromotional:
    'This investment was paid by a promotional activation code: it earns ROI, but its principal cannot be withdrawn',
  planNotFound: 'Choose an active plan for the new investment',
  notFound: 'No withdrawal request with this id',
  notPending: 'This withdrawal request has already been decided',
  mismatch: 'The amount and member do not match this withdrawal request',
  notCompound: 'Only a pending compound request can change its amount',
  txHashRequired: 'Enter the payout transaction hash to approve a withdrawal',
  txHashInvalid: 'A transaction hash is 0x followed by 64 hexadecimal characters',
  reasonRequired: 'Give the member a reason of 3 to 500 characters',
  statusInvalid: 'status is approved or rejected',
  approved: 'Withdrawal approved and marked paid',
  compoundApproved: 'Compound approved: the new investment is made',
  rejected: 'Withdrawal rejected: the money is back in the member’s balance',
  cancelled: 'Withdrawal request cancelled: the money is back in your balance',
  amountChanged: 'Compound amount changed',
  debited: 'Payout recorded',
  otpRequired: 'Enter the code we e-mailed you',
} as const;

const id = (message: string) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message));
const otp = verifyCodeSchema.entries.otp;
const network = v.optional(v.picklist(['bep20', 'trc20'] as const, 'network is bep20 or trc20'));

/** The payout's transaction hash. */
const payoutTxHash = txHashSchema({
  required: WITHDRAWAL_MESSAGES.txHashRequired,
  invalid: WITHDRAWAL_MESSAGES.txHashInvalid,
});

/** POST /withdrawalrequest/add: income from `working`. */
export const incomeWithdrawalSchema = v.object({ amount: amountSchema, otp, network });
/** POST /withdrawalrequest/add/roiwithdrawal: ROI income of one investment. */
export const roiWithdrawalSchema = v.object({
  amount: amountSchema,
  otp,
  network,
  topup_id: id(WITHDRAWAL_MESSAGES.investmentNotFound),
});
/** POST /withdrawalrequest/add/principle: the whole principal of a matured investment. */
export const principalWithdrawalSchema = v.object({
  otp,
  network,
  topup_id: id(WITHDRAWAL_MESSAGES.investmentNotFound),
});
/** POST /withdrawalrequest/addcompoundwithdrawal: income into a new investment in `plan_id`. */
export const compoundWithdrawalSchema = v.object({
  amount: amountSchema,
  otp,
  plan_id: id(WITHDRAWAL_MESSAGES.planNotFound),
});
export type IncomeWithdrawalInput = v.InferOutput<typeof incomeWithdrawalSchema>;
export type RoiWithdrawalInput = v.InferOutput<typeof roiWithdrawalSchema>;
export type PrincipalWithdrawalInput = v.InferOutput<typeof principalWithdrawalSchema>;
export type CompoundWithdrawalInput = v.InferOutput<typeof compoundWithdrawalSchema>;

/** PUT /withdrawalrequest/compound/amount (member): a new amount for their own pending compound request. */
export const compoundAmountSchema = v.object({ id: id(WITHDRAWAL_MESSAGES.notFound), amount: amountSchema });
export type CompoundAmountInput = v.InferOutput<typeof compoundAmountSchema>;

/**
 * PUT /withdrawalrequest/{id} (and /update/roi/{id}, /update/principle/{id}, /compound/{id}), admin:
 * the decision names the request's own amount and member (a mismatch is a 409). Approving a payout
 * needs its transaction hash; rejecting needs a reason for the member.
 */
export const withdrawalDecisionSchema = v.object({
  status: v.picklist(['approved', 'rejected'] as const, WITHDRAWAL_MESSAGES.statusInvalid),
  amount: amountSchema,
  user_id: id('user_id is required'),
  tx_hash: v.optional(payoutTxHash),
  reason: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(500, WITHDRAWAL_MESSAGES.reasonRequired), multiLineText()),
  ),
});
export type WithdrawalDecision = v.InferOutput<typeof withdrawalDecisionSchema>;

/** POST /withdrawalrequest/debit (admin): records a payout made to a member outside a request. */
export const withdrawalDebitSchema = v.object({
  user_id: id('user_id is required'),
  amount: amountSchema,
  tx_hash: payoutTxHash,
  reason: v.pipe(
    v.string(WITHDRAWAL_MESSAGES.reasonRequired),
    v.trim(),
    v.minLength(3, WITHDRAWAL_MESSAGES.reasonRequired),
    v.maxLength(500, WITHDRAWAL_MESSAGES.reasonRequired),
    multiLineText(),
  ),
});
export type WithdrawalDebitInput = v.InferOutput<typeof withdrawalDebitSchema>;

export const withdrawalListQuerySchema = v.object({
  status: v.optional(v.picklist(WITHDRAWAL_STATUSES)),
  kind: v.optional(v.picklist(WITHDRAWAL_KINDS)),
  /** Admins only: one member's requests (their member page). */
  user_id: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty(WITHDRAWAL_MESSAGES.userIdInvalid),
      v.maxLength(100, WITHDRAWAL_MESSAGES.userIdInvalid),
    ),
  ),
});
export type WithdrawalListQuery = v.InferOutput<typeof withdrawalListQuerySchema>;

/** A withdrawal as API.md gives it, plus what the screens show beside it. */
export const withdrawalSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  kind: v.picklist(WITHDRAWAL_KINDS),
  amount: v.string(),
  fee: v.string(),
  net_amount: v.string(),
  address: v.nullable(v.string()),
  network: v.nullable(v.string()),
  status: v.picklist(WITHDRAWAL_STATUSES),
  tx_hash: v.nullable(v.string()),
  reason: v.nullable(v.string()),
  topup_id: v.nullable(v.string()),
  plan_id: v.nullable(v.string()),
  plan_name: v.nullable(v.string()),
  created_at: v.string(),
  decided_at: v.nullable(v.string()),
  /** The member, for the admin's lists (a member sees their own). */
  fullname: v.string(),
  username: v.string(),
  email: v.string(),
  email_verified: v.boolean(),
  member_since: v.string(),
});
export type Withdrawal = v.InferOutput<typeof withdrawalSchema>;

export const withdrawalResultSchema = v.object({ message: v.string(), withdrawal: withdrawalSchema });
export const withdrawalListSchema = v.object({ withdrawals: v.array(withdrawalSchema) });

/** GET /withdrawalrequest/by/{id}: the request; for an admin, the member's recent money in beside it. */
export const withdrawalDetailSchema = v.object({
  withdrawal: withdrawalSchema,
  member: v.optional(
    v.object({
      deposits: v.array(v.object({ amount: v.string(), kind: v.string(), created_at: v.string() })),
      income: v.array(v.object({ amount: v.string(), kind: v.string(), created_at: v.string() })),
      deposits_total: v.string(),
      income_total: v.string(),
      withdrawn_total: v.string(),
    }),
  ),
});
export type WithdrawalDetail = v.InferOutput<typeof withdrawalDetailSchema>;

/**
 * GET /withdrawalrequest/options (member): what the withdrawal screen needs before the member types:
 * what they can withdraw, the limits, their payout addresses and when they can be used, and each
 * investment's ROI and principal that can be withdrawn.
 */
export const withdrawalOptionsSchema = v.object({
  working_available: v.string(),
  minimum: v.string(),
  fee_percent: v.string(),
  email_verified: v.boolean(),
  open_request: v.nullable(v.string()),
  addresses: v.array(
    v.object({ network: v.picklist(['bep20', 'trc20']), address: v.string(), usable_from: v.string() }),
  ),
  investments: v.array(
    v.object({
      topup_id: v.string(),
      plan_name: v.string(),
      amount: v.string(),
      roi_paid: v.string(),
      roi_withdrawable: v.string(),
      roi_end_date: v.string(),
      matured: v.boolean(),
      principal_withdrawable: v.boolean(),
      /** Paid by a promotional activation code: its principal is never paid out in cash. */
      promotional: v.boolean(),
    }),
  ),
  plans: v.array(
    v.object({ id: v.string(), name: v.string(), min_amount: v.string(), max_amount: v.string() }),
  ),
});
export type WithdrawalOptions = v.InferOutput<typeof withdrawalOptionsSchema>;

/** Spec 4 badge colours: approved green, pending yellow, rejected red, cancelled grey. */
export const WITHDRAWAL_BADGE: Record<WithdrawalStatus, 'green' | 'yellow' | 'red' | 'grey'> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
  cancelled: 'grey',
};

/** The withdrawal screens' own words (member and admin); the rules and the server's answers are above. */
export const WITHDRAWAL_TEXT = {
  title: 'Withdrawal',
  intro:
    'Ask for money out of your account. The amount is held from your balance at once. An admin reviews each request: an approved one is paid to your saved address, a rejected or cancelled one gives the money back to your balance.',
  summaryTitle: 'What you can withdraw',
  loading: 'Loading what you can withdraw',
  newRequest: 'New request',
  available: 'Income Working available',
  minimum: 'Minimum',
  fee: 'Fee',
  feeOf: (percent: string) => `${formatPercent(percent)} of the amount`,
  addressTitle: 'Payout address',
  addAddress: 'Add a payout address on your profile',
  changeAddress: 'Change it on your profile',
  usableFrom: (when: string) => `Usable for withdrawals from ${when} (24 hours after the change)`,
  usableNow: 'Usable now',
  verifyEmail: 'Open your profile',
  kindsLabel: 'Kind of withdrawal',
  amount: 'Amount',
  amountHint: (minimum: string) => `US dollars, at least ${minimum}`,
  investment: 'Investment',
  chooseInvestment: 'Choose an investment',
  investmentOption: (plan: string, amount: string, ends: string) =>
    `${plan}, ${amount}, last ROI day ${ends}`,
  roiLeft: 'ROI income left to withdraw',
  noRoi: 'None of your investments has ROI income left to withdraw.',
  /** The member's investments paid by a promotional activation code, on the principal screen. */
  promotionalPrincipal: (investments: string) =>
    `Paid by a promotional activation code, so their principal cannot be withdrawn (they earn ROI as any other): ${investments}.`,
  noPrincipal:
    'No investment of yours has finished earning with its principal still in it: a principal can be withdrawn after its last ROI day.',
  plan: 'Plan for the new investment',
  choosePlan: 'Choose a plan',
  planLimits: (min: string, max: string) => `This plan takes ${min} to ${max}.`,
  noPlans: 'No plan is open for new investments.',
  balanceTooLow: (balance: string, minimum: string, kind: 'income' | 'compound') =>
    kind === 'compound'
      ? `Your Income Working balance is ${balance}: there is nothing to compound yet. Income paid to you adds to it.`
      : `Your Income Working balance is ${balance}, and the least you can withdraw is ${minimum} (after its fee, something must be left to pay out). Income paid to you adds to it.`,
  network: 'Pay to',
  figuresTitle: 'What this request does',
  youReceive: 'Paid to your address',
  becomesInvestment: 'Becomes your new investment',
  noFee: 'No fee',
  codeIntro: 'Each request needs a new code: we e-mail it to you when you press Send code.',
  send: 'Send request',
  sending: 'Sending...',
  requestsTitle: 'Your withdrawal requests',
  noRequests: 'No withdrawal requests yet.',
  cancel: 'Cancel',
  cancelTitle: 'Cancel this request?',
  cancelQuestion: (amount: string) => `The ${amount} held for it goes back to your balance.`,
  keep: 'Keep it',
  confirmCancel: 'Cancel request',
  changeAmount: 'Change amount',
  newAmount: 'New amount',
  save: 'Save',
  goBack: 'Go back',
  status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', cancelled: 'Cancelled' },
  kindNames: { income: 'Income', roi: 'ROI', principal: 'Principal', compound: 'Compound' },
  // Admin screens.
  adminTitle: 'Withdrawals',
  adminIntro:
    'Every request, whatever its kind (income, ROI, principal, compound): the pending ones first, the oldest at the top. Each is decided once.',
  review: 'Review',
  detailTitle: 'Withdrawal request',
  memberMoney: 'The member’s money',
  recentDeposits: 'Recent deposits',
  recentIncome: 'Recent income',
  depositsTotal: 'Deposits in all',
  incomeTotal: 'Income in all',
  withdrawnTotal: 'Withdrawn in all',
  nothingYet: 'None yet.',
  approve: 'Approve',
  reject: 'Reject',
  txHash: 'Payout transaction hash',
  txHashHint: 'The transaction that paid the net amount to the member’s address: 0x and 64 hex characters',
  reason: 'Reason for the member',
  reasonHint: '3 to 500 characters; the member sees it',
  decide: 'Decision',
  confirmApprove: 'Approve and mark paid',
  confirmApproveCompound: 'Approve compound',
  confirmReject: 'Reject request',
  close: 'Close',
  saving: 'Saving...',
  payoutTitle: 'Record a payout made outside a request',
  payoutIntro:
    'For money already sent to a member without a request: it is taken from their Income Working balance with the usual fee, shown to them as an approved withdrawal, and written to the audit log.',
  payoutOpen: 'Record a payout',
  memberEmail: 'Member e-mail',
  findMember: 'Find member',
  payoutSubmit: 'Record payout',
  auditReason: 'Reason (audit log)',
  auditReasonHint: '3 to 500 characters; the member sees it too',
} as const;
