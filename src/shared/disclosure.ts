import * as v from 'valibot';

// The public income disclosure (issue 17 item 6, RULES.md "Rewards, salary, CTO, leadership"): from
// the real ledger, how many members earned how much income in the last 30 days, including those who
// earned nothing, the median, and the income paid against the deposits received. No invented numbers.

export const DISCLOSURE_DAYS = 30;

/** Income bands in cents: [from, to) ; the last has no upper end. */
export const INCOME_BANDS = [
  { id: 'none', label: 'Nothing', fromCents: 0, toCents: 1 },
  { id: 'under_10', label: 'Under $10', fromCents: 1, toCents: 1_000 },
  { id: '10_100', label: '$10 to $100', fromCents: 1_000, toCents: 10_000 },
  { id: '100_1000', label: '$100 to $1,000', fromCents: 10_000, toCents: 100_000 },
  { id: 'over_1000', label: 'Over $1,000', fromCents: 100_000, toCents: null },
] as const;

export const DISCLOSURE_TEXT = {
  title: 'Income disclosure',
  intro: (days: number) =>
    `What members really earned on this platform in the last ${days} days, computed from our ledger. It includes every member, those who earned nothing too.`,
  period: (from: string, to: string) => `From ${from} to ${to} (UTC)`,
  members: 'Members',
  earned: 'Earned in the period',
  share: 'Share of members',
  median: 'Median income per member',
  incomePaid: 'Income paid to members',
  deposits: 'Deposits received',
  computedAt: (when: string) => `Computed ${when}; refreshed daily.`,
  warning:
    'Past income says nothing about future income. Most people who invest in crypto trading lose money; you may earn nothing and lose what you put in.',
  link: 'Income disclosure',
} as const;

export const disclosureSchema = v.object({
  from: v.string(),
  to: v.string(),
  members: v.number(),
  bands: v.array(
    v.object({ id: v.string(), label: v.string(), members: v.number(), share_percent: v.string() }),
  ),
  median: v.string(),
  income_paid: v.string(),
  deposits: v.string(),
  computed_at: v.string(),
});
export type Disclosure = v.InferOutput<typeof disclosureSchema>;

/** "12.34" percent of `total`, rounded half up to 2 decimals, in integer arithmetic. */
export function sharePercent(count: number, total: number): string {
  if (total === 0) return '0.00';
  const hundredths = Math.floor((count * 10_000) / total + 0.5);
  return `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}
