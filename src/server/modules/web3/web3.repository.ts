import type { Db } from '../../db/database.ts';
import type { Web3DepositTable } from '../../db/schema.ts';

// The only SQL of on-chain deposits. A deposit leaves pending/confirming/awaiting_admin only through
// moveFrom(), whose `where status in (...)` lets exactly one of two concurrent checks (or approvals) win.

function depositRows(db: Db) {
  return db
    .selectFrom('web3_deposits as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .selectAll('d')
    .select(['u.username', 'u.fullname']);
}

export type Web3DepositRow = Awaited<ReturnType<ReturnType<typeof depositRows>['execute']>>[number];
export type Web3Status = Web3DepositTable['status'];

/** The admin's list is the newest this many. */
export const WEB3_LIST_LIMIT = 1000;

/** Inserts the deposit unless its (chain, hash) exists; true when this call inserted it. */
export async function insertIfNew(db: Db, row: Web3DepositTable): Promise<boolean> {
  const result = await db
    .insertInto('web3_deposits')
    .values(row)
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

export async function findDeposit(db: Db, id: string): Promise<Web3DepositRow | undefined> {
  return depositRows(db).where('d.id', '=', id).executeTakeFirst();
}

export async function findByHash(
  db: Db,
  chainId: number,
  txHash: string,
): Promise<Web3DepositRow | undefined> {
  return depositRows(db).where('d.chain_id', '=', chainId).where('d.tx_hash', '=', txHash).executeTakeFirst();
}

export async function listDeposits(
  db: Db,
  filter: { userId?: string; status?: Web3Status },
): Promise<Web3DepositRow[]> {
  let query = depositRows(db);
  if (filter.userId) query = query.where('d.user_id', '=', filter.userId);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(WEB3_LIST_LIMIT).execute();
}

/** Deposits the chain has still to settle, oldest check first (the background job's batch). */
export async function listOpen(db: Db, limit: number): Promise<{ id: string }[]> {
  return db
    .selectFrom('web3_deposits')
    .select('id')
    .where('status', 'in', ['pending', 'confirming'])
    .orderBy('checked_at', 'asc')
    .orderBy('created_at', 'asc')
    .limit(limit)
    .execute();
}

/**
 * Changes a deposit that is still in one of `from` (and, given `holder`, still that member's); false
 * when another change got there first. The holder guard keeps a check that read the row before a
 * takeover or an admin's assignment from crediting the member who held it then.
 */
export async function moveFrom(
  db: Db,
  id: string,
  from: Web3Status[],
  change: Partial<Omit<Web3DepositTable, 'id' | 'user_id' | 'chain_id' | 'tx_hash' | 'created_at'>>,
  holder?: string,
): Promise<boolean> {
  let update = db
    .updateTable('web3_deposits')
    .set({ ...change, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', 'in', from);
  if (holder !== undefined) update = update.where('user_id', '=', holder);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Hands an uncredited deposit from `holder` to `to` and opens it again (`status`: pending to be read
 * from the chain, or awaiting_admin without the chain check); false when it changed meanwhile. Its
 * created_at restarts too: the day the chain has to show it runs from this submit.
 */
export async function reopen(
  db: Db,
  id: string,
  holder: string,
  to: { userId: string; status: 'pending' | 'awaiting_admin' | 'keep'; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('web3_deposits')
    .set({
      user_id: to.userId,
      ...(to.status === 'keep'
        ? {}
        : {
            status: to.status,
            reason: null,
            confirmations: 0,
            reviewed_by: null,
            reviewed_at: null,
            created_at: to.at,
          }),
      updated_at: to.at,
    })
    .where('id', '=', id)
    .where('user_id', '=', holder)
    .where('status', 'in', ['pending', 'confirming', 'awaiting_admin', 'rejected'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
