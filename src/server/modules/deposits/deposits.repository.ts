import type { Db } from '../../db/database.ts';
import type { ManualDepositTable } from '../../db/schema.ts';

// The only SQL of manual deposits. A deposit's status changes only through decide(), whose
// `where status = 'pending'` makes the first decision the only one.

function depositRows(db: Db) {
  return db
    .selectFrom('manual_deposits as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select([
      'd.id',
      'd.user_id',
      'd.amount_cents',
      'd.tx_hash',
      'd.image',
      'd.status',
      'd.reason',
      'd.created_at',
      'd.decided_at',
      'u.fullname',
      'u.username',
      'u.email',
    ]);
}

export type DepositRow = Awaited<ReturnType<ReturnType<typeof depositRows>['execute']>>[number];

/** The admin's list is the newest this many (with a status filter, of that status). */
export const DEPOSIT_LIST_LIMIT = 1000;

export async function insertDeposit(db: Db, row: ManualDepositTable): Promise<void> {
  await db.insertInto('manual_deposits').values(row).execute();
}

export async function findDeposit(db: Db, id: string): Promise<DepositRow | undefined> {
  return depositRows(db).where('d.id', '=', id).executeTakeFirst();
}

export async function listDeposits(
  db: Db,
  filter: { userId?: string; status?: ManualDepositTable['status'] },
): Promise<DepositRow[]> {
  let query = depositRows(db);
  if (filter.userId) query = query.where('d.user_id', '=', filter.userId);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(DEPOSIT_LIST_LIMIT).execute();
}

/**
 * Moves a pending deposit to its decision; false when it was no longer pending (another decision, or a
 * cancellation, got there first). On PostgreSQL the losing update waits for the winner's row lock and
 * then finds the status changed.
 */
export async function decide(
  db: Db,
  id: string,
  change: {
    status: Exclude<ManualDepositTable['status'], 'pending'>;
    decidedBy: string;
    decidedAt: string;
    reason?: string | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('manual_deposits')
    .set({
      status: change.status,
      decided_by: change.decidedBy,
      decided_at: change.decidedAt,
      reason: change.reason ?? null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setLedgerTransfer(db: Db, id: string, ledgerTransferId: string): Promise<void> {
  await db
    .updateTable('manual_deposits')
    .set({ ledger_transfer_id: ledgerTransferId })
    .where('id', '=', id)
    .execute();
}
