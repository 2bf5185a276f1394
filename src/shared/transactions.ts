import * as v from 'valibot';
import {
  ADMIN_TRANSACTION_TABS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  transactionSearchSchema,
} from './enums.ts';
import type { LedgerKind } from './ledger-kinds.ts';

export { ADMIN_TRANSACTION_TABS, TRANSACTION_STATUSES, TRANSACTION_TYPES, transactionSearchSchema };

// A member's transactions (spec 3 "Transaction", spec 7 "Transactions", API.md "Plans, top-ups and
// income"): every ledger transfer one of the member's accounts takes part in, read from the ledger.
// Nothing is stored twice; the server derives type, source and status from the ledger rows.

export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** A ledger row's kind as a transaction type: a top-up is written as a plan purchase. */
export const KIND_OF_TYPE: Record<TransactionType, LedgerKind> = {
  roi: 'roi',
  level_income: 'level_income',
  activation_income: 'activation_income',
  topup: 'plan_purchase',
  transfer: 'transfer',
  deposit: 'deposit',
  withdrawal: 'withdrawal',
  withdrawal_fee: 'withdrawal_fee',
  reward: 'reward',
  salary: 'salary',
  cto: 'cto',
  adjustment: 'adjustment',
};

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Money into (credit) or out of (debit) the member's accounts. */
export const TRANSACTION_DIRECTIONS = ['credit', 'debit'] as const;

/** Spec 9: page 1, 10 a page. */
export const TRANSACTIONS_PER_PAGE = 10;
export const MAX_TRANSACTIONS_PER_PAGE = 100;

export const TRANSACTION_MESSAGES = {
  // Spec 8 "Transaction fallbacks", verbatim.
  createFailed: 'Failed to create transaction',
  fetchFailed: 'Failed to fetch transactions',
  fetchUserFailed: 'Failed to fetch user transactions',
  fetchDetailsFailed: 'Failed to fetch user details',
  updateFailed: 'Failed to update transaction status',
  summaryFailed: 'Failed to fetch transaction summary',
  pageInvalid: 'page must be a whole number of 1 or more',
  limitInvalid: `limit must be a whole number from 1 to ${MAX_TRANSACTIONS_PER_PAGE}`,
  typeInvalid: `transaction_type must be one of ${TRANSACTION_TYPES.join(', ')}`,
  statusInvalid: 'status must be completed, pending or failed',
  textTooLong: 'At most 100 characters',
  monthInvalid: 'month must be YYYY-MM',
  notFound: 'No transactions for this member',
  transactionNotFound: 'No pending transfer with this id',
} as const;

const pageNumber = (fallback: string, max: number, message: string) =>
  v.optional(
    v.pipe(
      v.string(message),
      v.regex(/^\d{1,6}$/, message),
      v.transform(Number),
      v.minValue(1, message),
      v.maxValue(max, message),
    ),
    fallback,
  );

const filterText = v.optional(
  v.pipe(v.string(), v.trim(), v.maxLength(100, TRANSACTION_MESSAGES.textTooLong)),
);

/** GET /tr/user/{userId}: every filter is optional; an empty one means "any". */
export const transactionQuerySchema = v.object({
  page: pageNumber('1', 1_000_000, TRANSACTION_MESSAGES.pageInvalid),
  limit: pageNumber(
    String(TRANSACTIONS_PER_PAGE),
    MAX_TRANSACTIONS_PER_PAGE,
    TRANSACTION_MESSAGES.limitInvalid,
  ),
  transaction_type: v.optional(v.picklist(TRANSACTION_TYPES, TRANSACTION_MESSAGES.typeInvalid)),
  source: filterText,
  status: v.optional(v.picklist(TRANSACTION_STATUSES, TRANSACTION_MESSAGES.statusInvalid)),
  search: filterText,
  direction: v.optional(v.picklist(TRANSACTION_DIRECTIONS, 'direction must be credit or debit')),
});
export type TransactionQuery = v.InferOutput<typeof transactionQuerySchema>;

/** GET /tr/all (admin): the same filters, and `user`: one member's id, e-mail or username. */
export const allTransactionsQuerySchema = v.object({
  ...transactionQuerySchema.entries,
  user: filterText,
});
export type AllTransactionsQuery = v.InferOutput<typeof allTransactionsQuerySchema>;

export const transactionUserParamsSchema = v.object({ userId: v.pipe(v.string(), v.nonEmpty()) });
export const transactionIdParamsSchema = v.object({ transactionId: v.pipe(v.string(), v.nonEmpty()) });

export const transactionSchema = v.object({
  transaction_id: v.string(),
  transaction_type: v.picklist(TRANSACTION_TYPES),
  source: v.string(),
  amount: v.string(),
  status: v.picklist(TRANSACTION_STATUSES),
  created_at: v.string(),
  description: v.nullable(v.string()),
  direction: v.picklist(TRANSACTION_DIRECTIONS),
});
export type Transaction = v.InferOutput<typeof transactionSchema>;

/** An admin's row also names the member whose transaction it is. */
export const adminTransactionSchema = v.object({
  ...transactionSchema.entries,
  user_id: v.string(),
  username: v.string(),
});
export type AdminTransaction = v.InferOutput<typeof adminTransactionSchema>;

export const transactionPageSchema = v.object({
  transactions: v.array(transactionSchema),
  totalPages: v.number(),
  currentPage: v.number(),
  total: v.number(),
});
export type TransactionPage = v.InferOutput<typeof transactionPageSchema>;

export const adminTransactionPageSchema = v.object({
  transactions: v.array(adminTransactionSchema),
  totalPages: v.number(),
  currentPage: v.number(),
  total: v.number(),
});
export type AdminTransactionPage = v.InferOutput<typeof adminTransactionPageSchema>;

/** GET /tr/matrix (admin): optional `month` (YYYY-MM) narrows it to one month. */
export const matrixQuerySchema = v.object({
  month: v.optional(
    v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, TRANSACTION_MESSAGES.monthInvalid)),
  ),
});

export const matrixRowSchema = v.object({
  month: v.string(),
  transaction_type: v.picklist(TRANSACTION_TYPES),
  count: v.number(),
  amount: v.string(),
});
export type MatrixRow = v.InferOutput<typeof matrixRowSchema>;
export const matrixSchema = v.object({ matrix: v.array(matrixRowSchema) });

/**
 * The member screens' `table_name` (docs/app.md): a group of transaction types. `all_transaction`
 * shows every type; each other name one kind, as the spec's client named its tables.
 */
export const TRANSACTION_TABLES = {
  all_transaction: null,
  roi_transaction: 'roi',
  level_transaction: 'level_income',
  activation_transaction: 'activation_income',
  topup_transaction: 'topup',
  transfer_transaction: 'transfer',
  deposit_transaction: 'deposit',
  withdrawal_transaction: 'withdrawal',
  withdrawal_fee_transaction: 'withdrawal_fee',
  reward_transaction: 'reward',
  salary_transaction: 'salary',
  cto_transaction: 'cto',
  adjustment_transaction: 'adjustment',
} as const satisfies Record<string, TransactionType | null>;
export type TransactionTable = keyof typeof TRANSACTION_TABLES;

export const TRANSACTION_TABLE_LABELS: Record<TransactionTable, string> = {
  all_transaction: 'All transactions',
  roi_transaction: 'ROI income',
  level_transaction: 'Level income',
  activation_transaction: 'Activation income',
  topup_transaction: 'Investments',
  transfer_transaction: 'Transfers',
  deposit_transaction: 'Deposits',
  withdrawal_transaction: 'Withdrawals',
  withdrawal_fee_transaction: 'Withdrawal fees',
  reward_transaction: 'Rewards',
  salary_transaction: 'Salary',
  cto_transaction: 'CTO',
  adjustment_transaction: 'Adjustments',
};

/**
 * The member screens' `fit` (docs/app.md): a narrowing inside a table. `in` / `out`: money into or
 * out of the member's accounts; `pending` / `completed` / `failed`: the status; `invest`: top-ups
 * and the ROI they earn (the spec's /user/transaction/roi_transaction/invest).
 */
export const TRANSACTION_FITS = ['in', 'out', 'pending', 'completed', 'failed', 'invest'] as const;
export type TransactionFit = (typeof TRANSACTION_FITS)[number];

export const TRANSACTION_FIT_LABELS: Record<TransactionFit, string> = {
  in: 'Money in',
  out: 'Money out',
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  invest: 'Investments',
};

export const isTransactionTable = (name: string): name is TransactionTable =>
  Object.hasOwn(TRANSACTION_TABLES, name);
export const isTransactionFit = (name: string): name is TransactionFit =>
  (TRANSACTION_FITS as readonly string[]).includes(name);
