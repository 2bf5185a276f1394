import { useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import type { RewardClaimRow } from '../../../../shared/rewards.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { rewardClaimsQuery } from '../api.ts';

const COLUMNS: DataColumn<RewardClaimRow>[] = [
  {
    id: 'date',
    header: 'Claimed',
    cell: (c) => formatDateTime(c.created_at),
    sortValue: (c) => c.created_at,
    descFirst: true,
    csv: (c) => c.created_at,
  },
  {
    id: 'member',
    header: 'Member',
    cell: (c) => (
      <>
        {c.fullname}
        <br />
        <span className="muted">@{c.username}</span>
      </>
    ),
    sortValue: (c) => c.username.toLowerCase(),
    searchText: (c) => `${c.username} ${c.fullname} ${c.rank}`,
    csv: (c) => c.username,
  },
  {
    id: 'rank',
    header: 'Rank',
    cell: (c) => c.rank,
    sortValue: (c) => c.rank.toLowerCase(),
    csv: (c) => c.rank,
  },
  {
    id: 'amount',
    header: 'Reward',
    className: 'num',
    cell: (c) => formatUsd(c.amount),
    sortValue: (c) => Number(c.amount),
    csv: (c) => c.amount,
  },
  {
    id: 'business',
    header: 'Team business at claim',
    className: 'num',
    cell: (c) => formatUsd(c.team_business),
    sortValue: (c) => Number(c.team_business),
    csv: (c) => c.team_business,
  },
];

/** /admin/reward-transactions: every claim, searchable by member or rank, with CSV. */
export function AdminRewardClaims() {
  const query = useQuery(rewardClaimsQuery);
  return (
    <DataTable
      caption="Reward claims"
      columns={COLUMNS}
      rows={query.data?.claims}
      rowKey={(c) => c.id}
      status={query}
      empty="No reward has been claimed yet."
      noun={['claim', 'claims']}
      testId="reward-claims"
      searchLabel="Search member or rank"
      csvName="reward-claims"
      initialSort={{ id: 'date', desc: true }}
    />
  );
}
