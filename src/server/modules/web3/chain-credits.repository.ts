import type { Db } from '../../db/database.ts';
import type { ChainCreditTable } from '../../db/schema.ts';

// One transaction on chain credits once, whatever the path (manual deposit, on-chain deposit, a crypto
// payment whose provider names the transaction it was paid by). Each path claims the (chain, hash) here inside the transaction that credits,
// before posting: the primary key decides between two paths, even at the same moment (on PostgreSQL
// the second insert waits for the first transaction and then finds its row).

export type ChainCreditSource = ChainCreditTable['source'];

export async function findChainCredit(
  db: Db,
  chainId: number,
  txHash: string,
): Promise<ChainCreditTable | undefined> {
  return db
    .selectFrom('chain_credits')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('tx_hash', '=', txHash.toLowerCase())
    .executeTakeFirst();
}

/**
 * Claims (chain, hash) for one credit; answers undefined when this call claimed it, else the claim that
 * was there (which may be the caller's own source row, when a concurrent check of it won).
 */
export async function claimChainCredit(
  db: Db,
  claim: { chainId: number; txHash: string; source: ChainCreditSource; sourceId: string; at: string },
): Promise<ChainCreditTable | undefined> {
  const inserted = await db
    .insertInto('chain_credits')
    .values({
      chain_id: claim.chainId,
      tx_hash: claim.txHash.toLowerCase(),
      source: claim.source,
      source_id: claim.sourceId,
      ledger_transfer_id: null,
      created_at: claim.at,
    })
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash']).doNothing())
    .returning('tx_hash')
    .executeTakeFirst();
  if (inserted) return undefined;
  const existing = await findChainCredit(db, claim.chainId, claim.txHash);
  if (!existing) throw new Error('a chain credit claim was refused but is missing');
  return existing;
}

export async function setChainCreditTransfer(
  db: Db,
  chainId: number,
  txHash: string,
  ledgerTransferId: string,
): Promise<void> {
  await db
    .updateTable('chain_credits')
    .set({ ledger_transfer_id: ledgerTransferId })
    .where('chain_id', '=', chainId)
    .where('tx_hash', '=', txHash.toLowerCase())
    .execute();
}

/** Gives back a claim this transaction made and could not use (its deposit changed meanwhile). */
export async function releaseChainCredit(
  db: Db,
  chainId: number,
  txHash: string,
  sourceId: string,
): Promise<void> {
  await db
    .deleteFrom('chain_credits')
    .where('chain_id', '=', chainId)
    .where('tx_hash', '=', txHash.toLowerCase())
    .where('source_id', '=', sourceId)
    .where('ledger_transfer_id', 'is', null)
    .execute();
}
