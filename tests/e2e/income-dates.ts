import { join } from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config.ts';
import SQLite from '../../src/server/db/sqlite.ts';
import { addDays, dateOf } from '../../src/shared/dates.ts';

// The daily income pays each date once for the whole run's database, and the API makes investments
// today only. So a spec that wants a run of its own picks a date older than every date paid so far
// (today's and yesterday's may be paid already, by the scheduler or by a repeat of the spec) and moves
// its investment's purchase to that date. Older runs cannot reach it: an investment earns from its
// purchase date on, and each new date is older than the last.

/** A UTC date no run has paid, older than every paid date and every investment moved before. */
export async function unpaidPastDate(adminRequest: APIRequestContext): Promise<string> {
  const res = await adminRequest.get('/api/v1/income/runs?limit=100');
  expect(res.status(), await res.text()).toBe(200);
  const { runs } = (await res.json()) as { runs: { date: string }[] };
  const oldest = [addDays(dateOf(), -1), ...runs.map((r) => r.date)].sort()[0] ?? dateOf();
  return addDays(oldest, -1);
}

/** Moves an investment's purchase to `date` (its last earning date follows), in the run's database. */
export function movePurchaseTo(topupId: string, date: string): void {
  const db = new SQLite(join(E2E_DATA_DIR, 'platform.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const row = db.prepare('select duration_days from topups where id = ?').get(topupId) as
      | { duration_days: number }
      | undefined;
    expect(row, `top-up ${topupId}`).toBeDefined();
    const moved = db
      .prepare('update topups set created_at = ?, roi_end_date = ? where id = ?')
      .run(`${date}T12:00:00.000Z`, addDays(date, Number(row?.duration_days) - 1), topupId);
    expect(moved.changes).toBe(1);
  } finally {
    db.close();
  }
}
