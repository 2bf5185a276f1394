import { type RawBuilder, sql } from 'kysely';
import { DEPOSIT_SOURCES, type ReportGroup } from '../../../shared/reports.ts';
import type { Db } from '../../db/database.ts';
import { TRANSFER_KIND } from '../transfers/transfers.repository.ts';
import { MOVED_PHASES, paidToMembers } from '../wallets/ledger.repository.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';
import { WITHDRAWAL_FEE_KIND, WITHDRAWAL_KIND } from '../withdrawals/withdrawals.service.ts';

// The only SQL of the admin's reports. Every figure is grouped by the database (GROUP BY bucket), so a
// report reads a few dozen rows back however many ledger rows the period holds (npm run bench:reports).
//
// The bucket: times are ISO 8601 UTC text on both databases (schema.ts), so the first 10 characters
// are the UTC day and the first 7 the UTC month, and one expression, substr, reads the same on SQLite
// and PostgreSQL. Its length is written as a literal: PostgreSQL matches a GROUP BY expression to the
// selected one by its text, and two parameters would be two different expressions to it.
// The period is [from, the day after to) compared as text, which the (account, created_at) and
// (kind, created_at) indexes answer as a range.

export type Period = { fromIso: string; toIso: string; group: ReportGroup };
export type BucketSum = { bucket: string; key: string; count: number; cents: number };

const bucketOf = (column: string, group: ReportGroup): RawBuilder<string> =>
  sql<string>`substr(${sql.ref(column)}, 1, ${sql.lit(group === 'day' ? 10 : 7)})`;

const toSums = (
  rows: { bucket: string; key: string; count: number | string; cents: number | string | null }[],
) => rows.map((r) => ({ bucket: r.bucket, key: r.key, count: Number(r.count), cents: Number(r.cents ?? 0) }));

/** Deposits: money out of the platform's deposits account into members' wallets, by source (its reference). */
export async function depositSums(db: Db, p: Period): Promise<BucketSum[]> {
  const source = sql<string>`case ${sql.join(
    DEPOSIT_SOURCES.map(
      (s) => sql`when reference like ${sql.lit(`${s.referencePrefix}%`)} then ${sql.lit(s.key)}`,
    ),
    sql` `,
  )} else 'other' end`;
  const bucket = bucketOf('created_at', p.group);
  const rows = await paidToMembers(db, PLATFORM.deposits)
    .where('created_at', '>=', p.fromIso)
    .where('created_at', '<', p.toIso)
    .select([
      bucket.as('bucket'),
      source.as('key'),
      (eb) => eb.fn.countAll<number>().as('count'),
      sql<number>`sum(amount_cents)`.as('cents'),
    ])
    .groupBy([bucket, source])
    .execute();
  return toSums(rows);
}

/** Income: money out of the platform's income account into members' wallets, by ledger kind. */
export async function incomeSums(db: Db, p: Period): Promise<BucketSum[]> {
  const bucket = bucketOf('created_at', p.group);
  const rows = await paidToMembers(db, PLATFORM.income)
    .where('created_at', '>=', p.fromIso)
    .where('created_at', '<', p.toIso)
    .select([
      bucket.as('bucket'),
      'kind as key',
      (eb) => eb.fn.countAll<number>().as('count'),
      sql<number>`sum(amount_cents)`.as('cents'),
    ])
    .groupBy([bucket, 'kind'])
    .execute();
  return toSums(rows);
}

/**
 * Withdrawals paid: net amounts posted to the platform's withdrawals-paid account (key 'paid'), and their
 * fees posted to the fees account (key 'fees'). A request's hold is not counted until it is posted.
 */
export async function withdrawalSums(db: Db, p: Period): Promise<BucketSum[]> {
  const bucket = bucketOf('created_at', p.group);
  // One statement per account: each is a range of the (credit, created_at, ...) index, read alone
  // (an OR of the two made PostgreSQL fetch every row from the table).
  const posted = (account: string, kind: string, key: string) =>
    db
      .selectFrom('ledger_transfers')
      .where('credit_account_id', '=', account)
      .where('created_at', '>=', p.fromIso)
      .where('created_at', '<', p.toIso)
      .where('phase', 'in', MOVED_PHASES)
      .where('kind', '=', kind)
      .select([
        bucket.as('bucket'),
        sql.lit(key).as('key'),
        (eb) => eb.fn.countAll<number>().as('count'),
        sql<number>`sum(amount_cents)`.as('cents'),
      ])
      .groupBy(bucket)
      .execute();
  const [paid, fees] = await Promise.all([
    posted(PLATFORM.withdrawals, WITHDRAWAL_KIND, 'paid'),
    posted(PLATFORM.fees, WITHDRAWAL_FEE_KIND, 'fees'),
  ]);
  return toSums([...paid, ...fees] as { bucket: string; key: string; count: number; cents: number }[]);
}

/**
 * Transfers between two members that completed: a 'single' row, or the 'post' of a held one (counted
 * when an admin approved it). A move between one member's own two wallets is left out: a wallet's
 * account id is `<member id>:<wallet>` (walletAccountId), so the two ids without their wallet name are
 * the two members, read from the index alone, with no join to the accounts.
 */
export async function transferSums(db: Db, p: Period): Promise<BucketSum[]> {
  const bucket = bucketOf('created_at', p.group);
  const ownerOf = (column: string) =>
    sql`replace(replace(${sql.ref(column)}, ${sql.lit(':business')}, ''), ${sql.lit(':working')}, '')`;
  const rows = await db
    .selectFrom('ledger_transfers')
    .where('kind', '=', TRANSFER_KIND)
    .where('phase', 'in', MOVED_PHASES)
    .where('created_at', '>=', p.fromIso)
    .where('created_at', '<', p.toIso)
    .where(sql<boolean>`${ownerOf('debit_account_id')} <> ${ownerOf('credit_account_id')}`)
    .select([
      bucket.as('bucket'),
      sql.lit('transfers').as('key'),
      (eb) => eb.fn.countAll<number>().as('count'),
      sql<number>`sum(amount_cents)`.as('cents'),
    ])
    .groupBy(bucket)
    .execute();
  return toSums(rows as { bucket: string; key: string; count: number; cents: number }[]);
}

/** Members (never admins) who signed up ('new'), and who were activated by their first investment ('activated'). */
export async function memberCounts(db: Db, p: Period): Promise<BucketSum[]> {
  const count = (column: 'created_at' | 'activation_date', key: string) => {
    const bucket = bucketOf(column, p.group);
    return db
      .selectFrom('users')
      .where('role', '=', 'user')
      .where(column, '>=', p.fromIso)
      .where(column, '<', p.toIso)
      .select([bucket.as('bucket'), sql.lit(key).as('key'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(bucket)
      .execute();
  };
  const [created, activated] = await Promise.all([
    count('created_at', 'new'),
    count('activation_date', 'activated'),
  ]);
  return toSums([...created, ...activated].map((r) => ({ ...r, key: String(r.key), cents: 0 })));
}
