import type { Kysely } from 'kysely';

// Issue 19 item 2, the admin's reports (npm run bench:reports). A report over a year reads most of the
// ledger through its (account, created_at) and (kind, created_at) indexes; each of those rows was then
// fetched from the table for its amount, phase and kind, and on a busy year (1,000,000 rows) that
// fetching was most of the time. The three indexes are widened so a report reads the index alone. The
// leading columns stay the same, so every query that used the narrow index uses the wide one, and a
// write still maintains three indexes, not six.

const WIDE = [
  {
    name: 'ledger_transfers_debit',
    columns: ['debit_account_id', 'created_at', 'phase', 'kind', 'amount_cents', 'credit_account_id'],
    narrow: ['debit_account_id', 'created_at'],
  },
  {
    name: 'ledger_transfers_credit',
    columns: ['credit_account_id', 'created_at', 'phase', 'kind', 'amount_cents'],
    narrow: ['credit_account_id', 'created_at'],
  },
  {
    name: 'ledger_transfers_kind',
    columns: ['kind', 'created_at', 'phase', 'amount_cents', 'debit_account_id', 'credit_account_id'],
    narrow: ['kind', 'created_at'],
  },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of WIDE) {
    await db.schema
      .createIndex(`${index.name}_wide`)
      .on('ledger_transfers')
      .columns([...index.columns])
      .execute();
    await db.schema.dropIndex(index.name).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of WIDE) {
    await db.schema
      .createIndex(index.name)
      .on('ledger_transfers')
      .columns([...index.narrow])
      .execute();
    await db.schema.dropIndex(`${index.name}_wide`).execute();
  }
}
