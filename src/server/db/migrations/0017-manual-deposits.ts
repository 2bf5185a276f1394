import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 16: manual deposits (RULES.md "Deposits": amount, transaction hash, optional screenshot,
// decided by an admin).
// - manual_deposits: one row per deposit a member sends. The status moves once, from pending to
//   approved, rejected or cancelled, by a conditional update (`where status = 'pending'`) in the same
//   transaction as the ledger credit, so two decisions can never both win.
// - manual_deposits_tx_hash: a transaction hash (stored in lower case) can be live in one deposit only:
//   pending or approved. A rejected or cancelled deposit frees it, so a member told "wrong amount" can
//   send the same payment again with the right amount. Partial unique indexes work on both databases.
// - uploads.purpose gains 'deposit' (the screenshot). SQLite cannot change a check constraint in
//   place, so its uploads table is rebuilt with the same rows.

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('manual_deposits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'approved', 'rejected', 'cancelled')`),
    )
    .addColumn('reason', 'text')
    .addColumn('ledger_transfer_id', 'text')
    .addColumn('decided_by', 'text', (c) => c.references('users.id'))
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('manual_deposits_tx_hash')
    .on('manual_deposits')
    .column('tx_hash')
    .unique()
    .where(sql<boolean>`status in ('pending', 'approved')`)
    .execute();
  await db.schema
    .createIndex('manual_deposits_user')
    .on('manual_deposits')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('manual_deposits_status')
    .on('manual_deposits')
    .columns(['status', 'created_at'])
    .execute();

  if (isPostgres(db)) {
    await sql`alter table uploads drop constraint uploads_purpose_check`.execute(db);
    await sql`alter table uploads add constraint uploads_purpose_check
      check (purpose in ('banner', 'ticket', 'deposit'))`.execute(db);
    return;
  }
  // SQLite: nothing references uploads, so the table can be swapped for one with the wider check.
  await db.schema
    .createTable('uploads_new')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('banner', 'ticket', 'deposit')`))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into uploads_new select name, owner_id, purpose, content_type, size_bytes, width, height, created_at from uploads`.execute(
    db,
  );
  await db.schema.dropTable('uploads').execute();
  await sql`alter table uploads_new rename to uploads`.execute(db);
  await db.schema.createIndex('uploads_purpose').on('uploads').columns(['purpose', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('manual_deposits').execute();
}
