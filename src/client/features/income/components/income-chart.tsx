import type { IncomeSummary } from '../../../../shared/income.ts';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { formatUtcDay, formatUtcShortDay } from '../../../lib/utc-days.ts';

// A bar per day, drawn by hand in SVG: a chart library would weigh more than the whole screen.

const WIDTH = 300;
const HEIGHT = 120;
const GAP = 2;

/** Income per UTC day, oldest first; each bar's title names its day and amount. */
export default function IncomeChart({ days }: { days: IncomeSummary['days'] }) {
  const cents = days.map((day) => parseCents(day.total) ?? 0);
  const highest = Math.max(0, ...cents);
  const totalCents = cents.reduce((sum, c) => sum + c, 0);
  const barWidth = WIDTH / Math.max(1, days.length);
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  const sumText = formatUsd(totalCents);
  return (
    <figure className="income-chart" data-testid="income-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Income per UTC day from ${formatUtcDay(first)} to ${formatUtcDay(last)}: ${sumText} in all`}
        preserveAspectRatio="none"
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="income-chart-axis" />
        {days.map((day, index) => {
          const value = cents[index] ?? 0;
          const height = highest > 0 ? Math.max(value > 0 ? 2 : 0, (value / highest) * (HEIGHT - 4)) : 0;
          return (
            <rect
              key={day.date}
              x={index * barWidth + GAP / 2}
              y={HEIGHT - height}
              width={Math.max(1, barWidth - GAP)}
              height={height}
              className="income-chart-bar"
              data-date={day.date}
            >
              <title>{`${formatUtcDay(day.date)}: ${formatUsd(day.total)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="income-chart-caption muted">
        <span>{formatUtcShortDay(first)}</span>
        <span>
          {highest > 0
            ? `Highest day ${formatUsd(days[cents.indexOf(highest)]?.total ?? '0.00')}`
            : 'No income in these days'}
        </span>
        <span>{`${formatUtcShortDay(last)} (UTC)`}</span>
      </figcaption>
    </figure>
  );
}
