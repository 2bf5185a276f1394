import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import type { Plan } from '../../../../shared/plans.ts';

/** "$10.00 to $1,000.00", or one price for an activation plan (its minimum is its maximum). */
export const planRange = (plan: Plan) =>
  plan.min_amount === plan.max_amount
    ? formatUsd(plan.min_amount)
    : `${formatUsd(plan.min_amount)} to ${formatUsd(plan.max_amount)}`;

/** What a plan is: its amounts, daily ROI rate and duration; no figure of income that does not exist. */
export function PlanFacts({ plan }: { plan: Plan }) {
  return (
    <dl className="facts">
      <div>
        <dt>{plan.min_amount === plan.max_amount ? 'Price' : 'Amount'}</dt>
        <dd data-testid="plan-range">{planRange(plan)}</dd>
      </div>
      <div>
        <dt>Daily ROI</dt>
        <dd>{formatPercent(plan.roi_percent)}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>
          {plan.duration_days} {plan.duration_days === 1 ? 'day' : 'days'}
        </dd>
      </div>
    </dl>
  );
}

/** Said on every plan in plain words: the rate is a target, not a promise. */
export const NOT_GUARANTEED =
  'Returns are not guaranteed: the daily ROI is a target, not a promise, and you may lose part or all of the amount you invest.';
