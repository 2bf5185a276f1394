import { useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import { type DirectMember, TEAM_TEXT } from '../../../../shared/team.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { directMembersQuery } from '../api.ts';

const COLUMNS: DataColumn<DirectMember>[] = [
  {
    id: 'member',
    header: 'Member',
    sortValue: (m) => m.username.toLowerCase(),
    searchText: (m) => `${m.username} ${m.fullname}`,
    csv: (m) => m.username,
    cell: (m) => (
      <>
        <strong>{m.fullname}</strong>
        <br />
        <span className="muted">@{m.username}</span>
      </>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    csv: (m) => m.is_active,
    cell: (m) => (
      <span className={`badge ${m.is_active === 'active' ? 'green' : ''}`}>
        {m.is_active === 'active' ? TEAM_TEXT.active : TEAM_TEXT.inactive}
      </span>
    ),
  },
  {
    id: 'joined',
    header: TEAM_TEXT.joined,
    sortValue: (m) => m.created_at,
    descFirst: true,
    csv: (m) => m.created_at,
    cell: (m) => formatDateTime(m.created_at),
  },
  {
    id: 'investment',
    header: TEAM_TEXT.investment,
    className: 'num',
    sortValue: (m) => Number(m.investment),
    descFirst: true,
    csv: (m) => m.investment,
    cell: (m) => formatUsd(m.investment),
  },
  {
    id: 'team',
    header: TEAM_TEXT.teamSize,
    className: 'num',
    sortValue: (m) => m.team_size,
    descFirst: true,
    csv: (m) => m.team_size,
    cell: (m) => m.team_size,
  },
  {
    id: 'business',
    header: TEAM_TEXT.teamBusiness,
    className: 'num',
    sortValue: (m) => Number(m.team_business),
    descFirst: true,
    csv: (m) => m.team_business,
    cell: (m) => formatUsd(m.team_business),
  },
];

/** /user/direct-members: the members who joined with this member's referral code. */
export function DirectMembers({
  memberId,
  emptyAction,
}: {
  memberId: string;
  emptyAction?: React.ReactNode;
}) {
  const query = useQuery(directMembersQuery(memberId));
  return (
    <DataTable
      caption={TEAM_TEXT.directTitle}
      columns={COLUMNS}
      rows={query.data?.members}
      rowKey={(m) => m.id}
      status={query}
      empty={TEAM_TEXT.noDirects}
      emptyAction={emptyAction}
      noun={['direct member', 'direct members']}
      testId="direct-members"
      searchLabel={TEAM_TEXT.search}
      csvName="direct-members"
      layout="stacked"
      initialSort={{ id: 'joined', desc: true }}
    />
  );
}
