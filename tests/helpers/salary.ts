import { expect } from 'vitest';
import { type Books, backdate } from './income.ts';

// What the salary suites share: investments moved into an ended month (the API makes them today only).

/** Moves an investment bought today to about the 15th of `month` (YYYY-MM); backdate counts whole days. */
export async function moveIntoMonth(books: Books, topupId: string, month: string): Promise<void> {
  const days = Math.round((Date.now() - Date.parse(`${month}-15T12:00:00.000Z`)) / 86_400_000);
  const date = await backdate(books, topupId, days);
  expect(date.slice(0, 7)).toBe(month);
}

/** "username tier cents" for each salary paid in `month`, by username. */
export async function paidIn(books: Books, month: string): Promise<string[]> {
  const rows = await books.db
    .selectFrom('salary_payments as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['u.username', 'p.tier_name', 'p.amount_cents'])
    .where('p.month', '=', month)
    .orderBy('u.username')
    .execute();
  return rows.map((r) => `${r.username} ${r.tier_name} ${Number(r.amount_cents)}`);
}
