import * as v from 'valibot';
import { parseCents } from './money.ts';
import { multiLineText } from './text.ts';

// Wallets and the ledger (RULES.md "Wallets and the ledger"): each member has two wallets; every
// movement is one balanced ledger transfer between two accounts. Amounts travel as decimal strings.

export const WALLETS = ['business', 'working'] as const;
export type Wallet = (typeof WALLETS)[number];
/** Spec 3: the labels of the two accounts. */
export const WALLET_LABELS: Record<Wallet, string> = { business: 'Active Wallet', working: 'Income Working' };
/**
 * One line on what each wallet is for, shown beside the transfer form's wallet choices. Only what is
 * true today: deposits land in the Active Wallet; income (none is paid yet) has the other one.
 */
export const WALLET_NOTES: Record<Wallet, string> = {
  business: 'Active Wallet: deposits and money received from members',
  working: 'Income Working: income, kept apart from deposits',
};

export const WALLET_MESSAGES = {
  insufficient: 'Insufficient balance in selected source account',
  amountRequired: 'Amount is required',
  amountInvalid: 'Amount must be a valid number',
  amountPositive: 'Amount must be greater than 0',
  amountFormat: 'Amounts have at most 2 decimals',
  reasonLength: 'A reason of 3 to 500 characters is required',
  walletInvalid: 'Choose business or working',
  directionInvalid: 'Choose credit or debit',
  userRequired: 'Choose a member',
  adjusted: 'Balance adjusted',
  noUserWithEmail: 'No user found with this email.',
  noUserWithUsername: 'No member has this username.',
  lookupOne: 'Look a member up by email or by username, one of the two',
  idempotencyReused: 'This Idempotency-Key was already used with a different request.',
} as const;

/** An amount in: a decimal string or number with at most 2 decimals, above zero; out: integer cents. */
export const amountSchema = v.pipe(
  v.union([v.string(), v.number()], WALLET_MESSAGES.amountRequired),
  v.transform((input) => (typeof input === 'string' ? input.trim() : input)),
  v.check((input) => input !== '', WALLET_MESSAGES.amountRequired),
  v.check((input) => !Number.isNaN(Number(input)), WALLET_MESSAGES.amountInvalid),
  v.check((input) => Number(input) > 0, WALLET_MESSAGES.amountPositive),
  v.transform((input) => parseCents(input)),
  v.number(WALLET_MESSAGES.amountFormat),
);

/** Why support staff moved money by hand: 3 to 500 characters, kept in the audit log. */
export const reasonSchema = v.pipe(
  v.string(WALLET_MESSAGES.reasonLength),
  v.trim(),
  v.minLength(3, WALLET_MESSAGES.reasonLength),
  v.maxLength(500, WALLET_MESSAGES.reasonLength),
  multiLineText(),
);

export const walletBalanceSchema = v.object({ business: v.string(), working: v.string() });
export type WalletBalance = v.InferOutput<typeof walletBalanceSchema>;

/**
 * GET /wallet/balance: the balances, and whether money has ever reached the Active Wallet from outside
 * the member's own wallets (a deposit, a transfer from another member, a credit by staff). The
 * dashboard's first steps tick "Add money" from it, so a member who spent all of it stays ticked.
 */
export const memberBalanceSchema = v.object({ ...walletBalanceSchema.entries, money_added: v.boolean() });
export type MemberBalance = v.InferOutput<typeof memberBalanceSchema>;

export const adjustmentSchema = v.object({
  user_id: v.pipe(v.string(WALLET_MESSAGES.userRequired), v.nonEmpty(WALLET_MESSAGES.userRequired)),
  wallet: v.picklist(WALLETS, WALLET_MESSAGES.walletInvalid),
  direction: v.picklist(['credit', 'debit'], WALLET_MESSAGES.directionInvalid),
  amount: amountSchema,
  reason: reasonSchema,
});
export type AdjustmentInput = v.InferOutput<typeof adjustmentSchema>;

/** A ledger transfer as the API shows it. */
export const ledgerTransferSchema = v.object({
  id: v.string(),
  kind: v.string(),
  amount: v.string(),
  debit_account: v.string(),
  credit_account: v.string(),
  description: v.nullable(v.string()),
  created_at: v.string(),
});
export type LedgerTransfer = v.InferOutput<typeof ledgerTransferSchema>;

export const adjustmentResultSchema = v.object({ message: v.string(), transfer: ledgerTransferSchema });

/**
 * GET /users: the transfer's recipient, by exact e-mail (the spec's call) or by username; both any case.
 * The answer names the e-mail only to whoever typed it: a username does not reveal an address.
 */
export const emailLookupQuerySchema = v.pipe(
  v.object({
    email: v.optional(
      v.pipe(v.string(), v.trim(), v.nonEmpty(WALLET_MESSAGES.noUserWithEmail), v.toLowerCase()),
    ),
    username: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.nonEmpty(WALLET_MESSAGES.noUserWithUsername),
        v.maxLength(30, WALLET_MESSAGES.noUserWithUsername),
      ),
    ),
  }),
  v.check((q) => (q.email === undefined) !== (q.username === undefined), WALLET_MESSAGES.lookupOne),
);
export const emailUserSchema = v.object({
  emailuser: v.object({
    id: v.string(),
    fullname: v.string(),
    username: v.string(),
    email: v.optional(v.string()),
  }),
});

/** The admin's proof that the books hold: the sum of all accounts is zero and every cached balance equals its entries. */
export const reconciliationSchema = v.object({
  balanced: v.boolean(),
  ledger_sum: v.string(),
  accounts_checked: v.number(),
  mismatches: v.array(
    v.object({
      account_id: v.string(),
      code: v.string(),
      owner_email: v.nullable(v.string()),
      cached: v.string(),
      computed: v.string(),
    }),
  ),
  checked_at: v.string(),
});
export type Reconciliation = v.InferOutput<typeof reconciliationSchema>;
