import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

// The figures a scrape reads from the database: what every server instance shares, so each one
// reports the same committed numbers whichever of them wrote the rows.

/**
 * Ledger rows by kind, every phase. Read through the (kind, ...) index alone (ledger_transfers_kind_wide):
 * a scan of that index, so its cost grows with the ledger, once per scrape and never per request.
 */
export async function transferCountsByKind(db: Db): Promise<{ kind: string; count: number }[]> {
  const { rows } = await sql<{ kind: string; count: number | string }>`
    select kind, count(*) as count from ledger_transfers group by kind`.execute(db);
  return rows.map((row) => ({ kind: row.kind, count: Number(row.count) }));
}

/** Mails not sent yet, by status; the (status, next_attempt_at) index skips the sent ones. */
export async function outboxDepthByStatus(db: Db): Promise<{ status: string; count: number }[]> {
  const { rows } = await sql<{ status: string; count: number | string }>`
    select status, count(*) as count from mail_outbox where status in ('pending', 'failed')
    group by status`.execute(db);
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/** The income run started last (one row per paid date: a small table). */
export async function lastIncomeRun(
  db: Db,
): Promise<{ status: string; finished_at: string | null } | undefined> {
  return db
    .selectFrom('income_runs')
    .select(['status', 'finished_at'])
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
