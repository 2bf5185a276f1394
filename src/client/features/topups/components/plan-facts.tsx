import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import type { Plan } from '../../../../shared/plans.ts';

/** "$10.00 to $1,000.00", or one price for an activation plan (its minimum is its maximum). */
export const planRange = (plan: Plan) =>
  plan.min_amount === plan.max_amount
    ? formatUsd(plan.min_amount)
    : `${formatUsd(plan.min_amount)} to ${formatUsd(plan.max_amount)}`;

/**
 * What a plan is, as its rules: its amounts, the most a day can pay and on how many days at most. No
 * figure of income that does not exist (no rate times days, no total at the end).
 */
export function PlanFacts({ plan }: { plan: Plan }) {
  return (
    <dl className="facts">
      <div>
        <dt>{plan.min_amount === plan.max_amount ? 'Price' : 'Amount'}</dt>
        <dd data-testid="plan-range">{planRange(plan)}</dd>
      </div>
      <div>
        <dt>Daily ROI rate</dt>
        <dd>{formatPercent(plan.roi_percent)}</dd>
      </div>
      <div>
        <dt>Paid on at most</dt>
        <dd>
          {plan.duration_days} {plan.duration_days === 1 ? 'day' : 'days'}
        </dd>
      </div>
    </dl>
  );
}

/** Said on every plan in plain words: the rate is a ceiling a day's run may pay, not a promise. */
export const NOT_GUARANTEED =
  "Returns are not guaranteed: a day's run pays at most the daily ROI rate and may pay nothing, ROI stops once it reaches the income cap, and you may lose part or all of the amount you invest.";
