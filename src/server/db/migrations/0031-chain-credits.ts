import { type Kysely, sql } from 'kysely';

// One transaction on chain credits once, whatever the path: a manual deposit, an on-chain deposit and a
// crypto payment whose provider names the transaction it was paid by credit through one row here, keyed
// by (chain, hash) and inserted in the transaction that posts the ledger credit. The primary key is the judge, on SQLite and on
// PostgreSQL, even for two paths crediting the same hash at the same moment.
// - source: 'manual' | 'onchain' | 'payment'; source_id: the credited row of that path; ledger_transfer_id:
//   the credit, set in the same transaction once posted (the claim comes first: a lost claim posts nothing).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_credits')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('ledger_transfer_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chain_credits_pk', ['chain_id', 'tx_hash'])
    .execute();
  // What was credited before this table existed is claimed too, or a hash credited by one path could
  // still be credited by the other. Where both paths credited one hash already, the first claim stays
  // (the on-chain one) and the double credit is the operator's to correct by an adjustment.
  await sql`
    insert into chain_credits (chain_id, tx_hash, source, source_id, ledger_transfer_id, created_at)
    select chain_id, tx_hash, 'onchain', id, ledger_transfer_id, coalesce(credited_at, updated_at)
    from web3_deposits where status = 'credited'
    on conflict do nothing`.execute(db);
  // Manual deposits are USDT on BNB Smart Chain (chain id 56).
  await sql`
    insert into chain_credits (chain_id, tx_hash, source, source_id, ledger_transfer_id, created_at)
    select 56, lower(tx_hash), 'manual', id, ledger_transfer_id, coalesce(decided_at, created_at)
    from manual_deposits where status = 'approved'
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chain_credits').execute();
}
