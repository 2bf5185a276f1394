import { type Kysely, sql } from 'kysely';

// Issue 16: money out (RULES.md "Withdrawals"). One row per request; its money is one or two ledger
// holds (the net amount towards `withdrawals paid` or, for compound, the member's `invested`; the fee
// towards `fees`) made in the same transaction as the row, and settled with its decision.
// - withdrawals_one_open: a partial unique index, so a member has at most one pending request,
//   whatever the races (the second insert fails inside the transaction that would hold its money).
// - withdrawals_principal_once: a matured investment's principal is requested once (while pending or
//   paid); a rejected or cancelled request frees it again.
// - status moves only from pending (a conditional update decides who settles the holds).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('income', 'roi', 'principal', 'compound')`),
    )
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('fee_cents', 'bigint', (c) => c.notNull().check(sql`fee_cents >= 0`))
    .addColumn('net_amount_cents', 'bigint', (c) => c.notNull().check(sql`net_amount_cents > 0`))
    .addColumn('network', 'text')
    .addColumn('address', 'text')
    .addColumn('topup_id', 'text', (c) => c.references('topups.id'))
    .addColumn('plan_id', 'text', (c) => c.references('plans.id'))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'approved', 'rejected', 'cancelled')`),
    )
    .addColumn('hold_id', 'text')
    .addColumn('fee_hold_id', 'text')
    .addColumn('tx_hash', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text', (c) => c.references('users.id'))
    .addCheckConstraint('withdrawals_sum', sql`amount_cents = net_amount_cents + fee_cents`)
    .execute();
  await db.schema
    .createIndex('withdrawals_one_open')
    .on('withdrawals')
    .column('user_id')
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('withdrawals_principal_once')
    .on('withdrawals')
    .column('topup_id')
    .unique()
    .where(sql<boolean>`kind = 'principal' and status in ('pending', 'approved')`)
    .execute();
  await db.schema
    .createIndex('withdrawals_user')
    .on('withdrawals')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('withdrawals_status')
    .on('withdrawals')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema.createIndex('withdrawals_topup').on('withdrawals').columns(['topup_id', 'kind']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('withdrawals').execute();
}
