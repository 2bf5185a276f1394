import { useQuery } from '@tanstack/react-query';
import type { Leader } from '../../../../shared/leadership.ts';
import { formatMoney } from '../../../lib/format.ts';
import { api } from '../../../lib/http.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';

const COLUMNS: DataColumn<Leader>[] = [
  {
    id: 'member',
    header: 'Member',
    cell: (l) => `${l.fullname} (@${l.username})`,
    searchText: (l) => `${l.username} ${l.fullname} ${l.rank}`,
    csv: (l) => l.username,
  },
  { id: 'rank', header: 'Rank', cell: (l) => l.rank, csv: (l) => l.rank },
  {
    id: 'business',
    header: 'Team business',
    className: 'num',
    cell: (l) => formatMoney(l.team_business),
    sortValue: (l) => Number(l.team_business),
    descFirst: true,
    csv: (l) => l.team_business,
  },
];

/** Leadership: members by the highest rung their team business reaches (GET /leadership/list). */
export function AdminLeadership() {
  const query = useQuery({
    queryKey: ['rewards', 'leadership'],
    queryFn: () => api<{ leaders: Leader[] }>('GET', '/leadership/list'),
    staleTime: 0,
  });
  return (
    <section className="stack" aria-labelledby="leadership-title">
      <h2 id="leadership-title">Leadership</h2>
      <DataTable
        caption="Leadership"
        columns={COLUMNS}
        rows={query.data?.leaders}
        rowKey={(l) => l.user_id}
        status={query}
        empty="No member's team business reaches a rank yet."
        noun={['leader', 'leaders']}
        testId="leadership"
        searchLabel="Search member or rank"
        csvName="leadership"
      />
    </section>
  );
}
