import { type Kysely, sql } from 'kysely';

// The double-entry ledger (RULES.md "Wallets and the ledger").
// - ledger_accounts: a member's two wallets and the platform's own accounts. balance_cents is the
//   cached posted balance, held_cents the sum of open holds. The CHECK makes a member wallet's
//   available money (balance - held) unable to go below zero whatever the code does.
// - ledger_transfers: immutable rows. phase 'single' moves money at once; 'pending' holds it;
//   'post' and 'void' settle a pending row, referenced by pending_id, which is UNIQUE: a hold is
//   posted or voided exactly once (TigerBeetle's two-phase transfers).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('held_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_negative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('ledger_accounts_held_non_negative', sql`held_cents >= 0`)
    .addCheckConstraint(
      'ledger_accounts_available',
      sql`allow_negative = 1 or balance_cents - held_cents >= 0`,
    )
    .execute();
  await db.schema
    .createIndex('ledger_accounts_owner_code')
    .on('ledger_accounts')
    .columns(['user_id', 'code'])
    .unique()
    .execute();

  await db.schema
    .createTable('ledger_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('debit_account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('credit_account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('phase', 'text', (c) => c.notNull().check(sql`phase in ('single', 'pending', 'post', 'void')`))
    .addColumn('pending_id', 'text', (c) => c.references('ledger_transfers.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('description', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('ledger_transfers_two_accounts', sql`debit_account_id <> credit_account_id`)
    .execute();
  await db.schema
    .createIndex('ledger_transfers_pending_once')
    .on('ledger_transfers')
    .column('pending_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('ledger_transfers_debit')
    .on('ledger_transfers')
    .columns(['debit_account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('ledger_transfers_credit')
    .on('ledger_transfers')
    .columns(['credit_account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['owner_id', 'key'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_target')
    .on('audit_log')
    .columns(['target_type', 'target_id'])
    .execute();

  // The platform's side of every movement, so each transfer balances. These may go below zero:
  // 'platform:adjustments' is negative by what support staff have credited to members, and so on.
  const createdAt = new Date().toISOString();
  await db
    .insertInto('ledger_accounts' as never)
    .values(
      [
        'platform:adjustments',
        'platform:deposits',
        'platform:withdrawals',
        'platform:income',
        'platform:fees',
      ].map((code) => ({
        id: code,
        user_id: null,
        code,
        balance_cents: 0,
        held_cents: 0,
        allow_negative: 1,
        created_at: createdAt,
      })) as never,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['audit_log', 'idempotency_keys', 'ledger_transfers', 'ledger_accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
