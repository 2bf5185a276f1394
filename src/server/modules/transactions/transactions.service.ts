import { csvDocument } from '../../../shared/csv.ts';
import { formatCents } from '../../../shared/money.ts';
import {
  type AdminTransaction,
  type AdminTransactionPage,
  type AllTransactionsQuery,
  KIND_OF_TYPE,
  type MatrixRow,
  TRANSACTION_MESSAGES,
  TRANSACTION_TYPES,
  type Transaction,
  type TransactionPage,
  type TransactionQuery,
  type TransactionType,
} from '../../../shared/transactions.ts';
import type { TransferDecision } from '../../../shared/transfers.ts';
import type { Db } from '../../db/database.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { TRANSFER_KIND } from '../transfers/transfers.repository.ts';
import { type DecisionOutcome, decideTransfer } from '../transfers/transfers.service.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  findLedgerKind,
  findTransactions,
  type TransactionFilter,
  type TransactionRow,
  transactionMatrix,
} from './transactions.repository.ts';

// A member's transactions, read from the ledger (API.md "Plans, top-ups and income"). A member reads
// only their own; an admin reads anyone's, every member's at once, and the per-month totals.

const TYPE_OF_KIND = Object.fromEntries(
  TRANSACTION_TYPES.map((type) => [KIND_OF_TYPE[type], type]),
) as Record<string, TransactionType>;

function toTransaction(row: TransactionRow): Transaction {
  return {
    transaction_id: row.id,
    transaction_type: TYPE_OF_KIND[row.kind] ?? 'adjustment',
    source: row.source,
    amount: formatCents(Number(row.amount_cents)),
    status: row.status,
    created_at: row.created_at,
    description: row.description,
    direction: row.direction,
  };
}

const filterOf = (query: TransactionQuery): TransactionFilter => ({
  kind: query.transaction_type ? KIND_OF_TYPE[query.transaction_type] : undefined,
  status: query.status,
  source: query.source || undefined,
  search: query.search || undefined,
  direction: query.direction,
});

async function pageOf(db: Db, memberId: string | null, filter: TransactionFilter, query: TransactionQuery) {
  const { rows, total } = await findTransactions(db, memberId, filter, {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { rows, total, totalPages: Math.ceil(total / query.limit), currentPage: query.page };
}

/** GET /tr/user/{userId}: the member themself, or an admin; another member's id is a 404 (API.md). */
export async function memberTransactions(
  db: Db,
  asker: SessionUser,
  memberId: string,
  query: TransactionQuery,
): Promise<TransactionPage> {
  if (asker.user.role !== 'admin' && asker.user.id !== memberId)
    throw notFound(TRANSACTION_MESSAGES.notFound);
  if (asker.user.role === 'admin' && (await findUserById(db, memberId))?.role !== 'user')
    throw notFound(TRANSACTION_MESSAGES.notFound);
  const { rows, ...page } = await pageOf(db, memberId, filterOf(query), query);
  return { transactions: rows.map(toTransaction), ...page };
}

/** GET /tr/all (admin): every member's transactions, each listed once under the member it credits. */
export async function allTransactions(
  db: Db,
  asker: SessionUser,
  query: AllTransactionsQuery,
): Promise<AdminTransactionPage> {
  if (asker.user.role !== 'admin') throw forbidden();
  const filter = { ...filterOf(query), user: query.user || undefined };
  const { rows, ...page } = await pageOf(db, null, filter, query);
  const transactions: AdminTransaction[] = rows.map((row) => ({
    ...toTransaction(row),
    user_id: row.user_id,
    username: row.username,
  }));
  return { transactions, ...page };
}

/** Rows in one CSV export at most: a year of a busy platform; narrow the filter for more. */
export const TRANSACTION_EXPORT_MAX_ROWS = 50_000;

/** GET /tr/export (admin): every transaction of the /tr/all filter, newest first, as CSV. */
export async function exportTransactionsCsv(db: Db, asker: SessionUser, query: AllTransactionsQuery) {
  if (asker.user.role !== 'admin') throw forbidden();
  const filter = { ...filterOf(query), user: query.user || undefined };
  const { rows } = await findTransactions(db, null, filter, {
    offset: 0,
    limit: TRANSACTION_EXPORT_MAX_ROWS,
  });
  return csvDocument(
    [
      'transaction_id',
      'created_at',
      'username',
      'transaction_type',
      'direction',
      'amount',
      'status',
      'source',
      'description',
    ],
    rows.map((row) => {
      const t = toTransaction(row);
      return [
        t.transaction_id,
        t.created_at,
        row.username,
        t.transaction_type,
        t.direction,
        t.amount,
        t.status,
        t.source,
        t.description,
      ];
    }),
  );
}

/** GET /tr/matrix (admin): per month and type, how many and how much (rejected transfers left out). */
export async function transactionTotals(
  db: Db,
  asker: SessionUser,
  month: string | undefined,
): Promise<{ matrix: MatrixRow[] }> {
  if (asker.user.role !== 'admin') throw forbidden();
  const cells = await transactionMatrix(db, month);
  return {
    matrix: cells.map((cell) => ({
      month: cell.month,
      transaction_type: TYPE_OF_KIND[cell.kind] ?? 'adjustment',
      count: Number(cell.count),
      amount: formatCents(Number(cell.amount_cents)),
    })),
  };
}

/**
 * PATCH /transactions/{id} (admin): only a transfer waiting for review can be settled, and the
 * transfers module decides it (one rule, one place: exactly once, audited, the recipient notified).
 */
export async function decideTransaction(
  db: Db,
  admin: SessionUser,
  id: string,
  decision: TransferDecision,
  idempotencyKey: string | undefined,
): Promise<DecisionOutcome> {
  if (admin.user.role !== 'admin') throw forbidden();
  if ((await findLedgerKind(db, id)) !== TRANSFER_KIND)
    throw notFound(TRANSACTION_MESSAGES.transactionNotFound);
  return decideTransfer(db, admin, id, decision, idempotencyKey);
}
