import { type Kysely, sql } from 'kysely';

// Crypto payments (RULES.md "Deposits").
// - crypto_payments: one row per provider invoice; status_rank lets a guarded UPDATE move the status
//   only forward, so an old status arriving late changes nothing.
// - payment_credits: the proof that a payment was credited. Its primary key (provider, payment id) is
//   what makes crediting exactly-once: it is inserted in the same transaction as the ledger transfer.
// - sandbox_payments: the built-in sandbox provider's own book of invoices (kept in the database, so
//   any server instance answers for any of them).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crypto_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_payment_id', 'text', (c) => c.notNull())
    .addColumn('pay_address', 'text', (c) => c.notNull())
    .addColumn('price_amount_cents', 'bigint', (c) => c.notNull().check(sql`price_amount_cents > 0`))
    .addColumn('price_currency', 'text', (c) => c.notNull())
    .addColumn('pay_currency', 'text', (c) => c.notNull())
    .addColumn('pay_amount', 'text', (c) => c.notNull())
    .addColumn('actually_paid', 'text')
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('status_rank', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema
    .createIndex('crypto_payments_provider_id')
    .on('crypto_payments')
    .columns(['provider', 'provider_payment_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('crypto_payments_user')
    .on('crypto_payments')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('crypto_payments_open')
    .on('crypto_payments')
    .columns(['status_rank', 'created_at'])
    .execute();

  await db.schema
    .createTable('payment_credits')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_payment_id', 'text', (c) => c.notNull())
    .addColumn('ledger_transfer_id', 'text', (c) => c.notNull().references('ledger_transfers.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('automatic', 'manual')`))
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_credits_pk', ['provider', 'provider_payment_id'])
    .execute();

  await db.schema
    .createTable('sandbox_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('pay_address', 'text', (c) => c.notNull())
    .addColumn('price_amount', 'text', (c) => c.notNull())
    .addColumn('price_currency', 'text', (c) => c.notNull())
    .addColumn('pay_currency', 'text', (c) => c.notNull())
    .addColumn('pay_amount', 'text', (c) => c.notNull())
    .addColumn('paid_amount', 'text')
    .addColumn('paid_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sandbox_payments', 'payment_credits', 'crypto_payments']) {
    await db.schema.dropTable(table).execute();
  }
}
