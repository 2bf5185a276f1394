import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import { type Reward, rewardPlanSchema } from '../../../../shared/rewards.ts';
import { CrudTable } from '../../../ui/crud-table.tsx';
import type { DataColumn } from '../../../ui/data-table.tsx';
import {
  createRewardPlan,
  deleteRewardPlan,
  type RewardFields,
  refreshRewards,
  rewardPlansQuery,
  updateRewardPlan,
} from '../api.ts';

const EMPTY: RewardFields = { rank: '', business_needed: '', amount: '' };

const COLUMNS: DataColumn<Reward>[] = [
  {
    id: 'rank',
    header: 'Rank',
    cell: (r) => r.rank,
    sortValue: (r) => r.rank.toLowerCase(),
    searchText: (r) => r.rank,
    csv: (r) => r.rank,
  },
  {
    id: 'business',
    header: 'Team business needed',
    className: 'num',
    cell: (r) => formatUsd(r.business_needed),
    sortValue: (r) => Number(r.business_needed),
    csv: (r) => r.business_needed,
  },
  {
    id: 'amount',
    header: 'Reward',
    className: 'num',
    cell: (r) => formatUsd(r.amount),
    sortValue: (r) => Number(r.amount),
    csv: (r) => r.amount,
  },
];

/** /admin/reward-plans: the ladder, a form that adds or edits one rung, and delete. */
export function AdminRewardPlans() {
  const queryClient = useQueryClient();
  const query = useQuery(rewardPlansQuery);
  return (
    <CrudTable
      rows={query.data?.rewards}
      status={query}
      columns={COLUMNS}
      table={{
        caption: 'Reward plans',
        empty: 'No reward plans yet.',
        noun: ['reward plan', 'reward plans'],
        testId: 'reward-plans',
        csvName: 'reward-plans',
        initialSort: { id: 'business', desc: false },
      }}
      fields={[
        { name: 'rank', label: 'Rank', maxLength: 60 },
        { name: 'business_needed', label: 'Team business needed (USD)', inputMode: 'decimal' },
        { name: 'amount', label: 'Reward (USD)', inputMode: 'decimal' },
      ]}
      empty={EMPTY}
      toFields={(r) => ({ rank: r.rank, business_needed: r.business_needed, amount: r.amount })}
      title={(r) => r.rank}
      newTitle="New reward plan"
      createLabel="Create reward plan"
      headingLevel={2}
      schema={rewardPlanSchema}
      toInput={(fields): RewardFields => ({
        rank: fields.rank.trim(),
        business_needed: fields.business_needed.trim(),
        amount: fields.amount.trim(),
      })}
      send={(typed, editing) => (editing ? updateRewardPlan(editing.id, typed) : createRewardPlan(typed))}
      remove={(r) => deleteRewardPlan(r.id)}
      refresh={() => refreshRewards(queryClient)}
      deleteNote="A reward someone has claimed stays in the ladder."
    />
  );
}
