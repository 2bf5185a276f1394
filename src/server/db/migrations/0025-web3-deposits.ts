import { type Kysely, sql } from 'kysely';

// Issue 18: on-chain deposits (RULES.md "Deposits: Web3 deposit").
// - web3_deposits: one row per (chain, transaction hash), whoever submitted it: the UNIQUE index is what
//   makes a hash credit once, also between two submits at once. The hash is stored in lower case.
// - amount_cents comes from the chain's Transfer log (null until read), or from an admin's approval when
//   no RPC is configured. The status moves pending -> confirming -> credited, or to rejected; with no
//   RPC it starts at awaiting_admin. Credited is set by a conditional update in the transaction that
//   posts the ledger credit (ledger_transfer_id), so two checks can never both credit.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web3_deposits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull().check(sql`tx_hash = lower(tx_hash)`))
    .addColumn('amount_cents', 'bigint', (c) => c.check(sql`amount_cents is null or amount_cents > 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'confirming', 'credited', 'rejected', 'awaiting_admin')`),
    )
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('from_address', 'text')
    .addColumn('to_address', 'text')
    .addColumn('block_number', 'bigint')
    .addColumn('reason', 'text')
    .addColumn('ledger_transfer_id', 'text', (c) => c.references('ledger_transfers.id'))
    .addColumn('reviewed_by', 'text', (c) => c.references('users.id'))
    .addColumn('reviewed_at', 'text')
    .addColumn('credited_at', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('web3_deposits_chain_hash')
    .on('web3_deposits')
    .columns(['chain_id', 'tx_hash'])
    .unique()
    .execute();
  await db.schema
    .createIndex('web3_deposits_user')
    .on('web3_deposits')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('web3_deposits_status')
    .on('web3_deposits')
    .columns(['status', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web3_deposits').execute();
}
