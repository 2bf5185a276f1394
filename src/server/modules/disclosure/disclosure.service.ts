import { addDays } from '../../../shared/dates.ts';
import { DISCLOSURE_DAYS, type Disclosure, INCOME_BANDS, sharePercent } from '../../../shared/disclosure.ts';
import { formatCents } from '../../../shared/money.ts';
import type { Db } from '../../db/database.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';
import { bandCounts, middleTotals, paidFrom } from './disclosure.repository.ts';

// GET /public/income-disclosure: the last 30 whole UTC days before today, computed once a day per
// server (every server computes the same figures from the same ledger), so a visitor's page never
// costs more than one cached answer.

/** Per database (a test process may run several servers), the answer of the day. */
const cache = new WeakMap<Db, { day: string; answer: Disclosure }>();

export async function incomeDisclosure(db: Db, now = new Date()): Promise<Disclosure> {
  const today = now.toISOString().slice(0, 10);
  const cached = cache.get(db);
  if (cached?.day === today) return cached.answer;
  const from = addDays(today, -DISCLOSURE_DAYS);
  const fromIso = `${from}T00:00:00.000Z`;
  const toIso = `${today}T00:00:00.000Z`;
  const counts = await bandCounts(db, fromIso, toIso, INCOME_BANDS);
  const members = [...counts.values()].reduce((a, b) => a + b, 0);
  const [middle, income, deposits] = await Promise.all([
    middleTotals(db, fromIso, toIso, members),
    paidFrom(db, PLATFORM.income, fromIso, toIso),
    paidFrom(db, PLATFORM.deposits, fromIso, toIso),
  ]);
  // The median of an even count is the mean of the two middle totals, rounded down to the cent.
  const median = middle.length === 0 ? 0 : Math.floor(middle.reduce((a, b) => a + b, 0) / middle.length);
  const answer: Disclosure = {
    from,
    to: addDays(today, -1),
    members,
    bands: INCOME_BANDS.map((band) => {
      const count = counts.get(band.id) ?? 0;
      return { id: band.id, label: band.label, members: count, share_percent: sharePercent(count, members) };
    }),
    median: formatCents(median),
    income_paid: formatCents(income),
    deposits: formatCents(deposits),
    computed_at: now.toISOString(),
  };
  cache.set(db, { day: today, answer });
  return answer;
}
