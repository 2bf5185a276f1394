import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { MEMBER_RECORD_TABS } from '../../../../shared/enums.ts';
import { formatUsd } from '../../../../shared/money.ts';
import type { DirectMember } from '../../../../shared/team.ts';
import { type Ticket, ticketBadgeColour, ticketStatusLabel } from '../../../../shared/tickets.ts';
import type { Topup } from '../../../../shared/topups.ts';
import type { Transaction } from '../../../../shared/transactions.ts';
import { badgeColour } from '../../../../shared/transfers.ts';
import { WITHDRAWAL_BADGE, WITHDRAWAL_TEXT, type Withdrawal } from '../../../../shared/withdrawals.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DateTime } from '../../../ui/date-time.tsx';
import { Tabs } from '../../../ui/tabs.tsx';
import {
  memberDepositsQuery,
  memberTeamQuery,
  memberTicketsQuery,
  memberTopupsQuery,
  memberWithdrawalsQuery,
} from '../api.ts';
import { ActiveBadge } from './member-badges.tsx';

export type MemberRecordTab = (typeof MEMBER_RECORD_TABS)[number];

const TABS: { key: MemberRecordTab; label: string }[] = [
  { key: 'investments', label: 'Investments' },
  { key: 'withdrawals', label: 'Withdrawals' },
  { key: 'deposits', label: 'Deposits' },
  { key: 'team', label: 'Team' },
  { key: 'tickets', label: 'Tickets' },
];

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function investmentColumns(memberId: string): DataColumn<Topup>[] {
  return [
    {
      id: 'date',
      header: 'Date',
      cell: (t) => <DateTime iso={t.created_at} />,
      sortValue: (t) => t.created_at,
    },
    { id: 'plan', header: 'Plan', cell: (t) => t.plan_name },
    { id: 'amount', header: 'Amount', className: 'num', cell: (t) => formatUsd(t.amount) },
    { id: 'roi', header: 'ROI paid', className: 'num', cell: (t) => formatUsd(t.roi_paid) },
    {
      // A top-up is the member's own investment, or one they paid for another member.
      id: 'whose',
      header: 'Whose',
      cell: (t) =>
        t.user_id !== memberId ? (
          <>
            Paid for{' '}
            <Link to="/admin/check/profile/$id" params={{ id: t.user_id }}>
              {t.user_name}
            </Link>
          </>
        ) : t.userby_id && t.userby_id !== memberId ? (
          <>
            Paid by{' '}
            <Link to="/admin/check/profile/$id" params={{ id: t.userby_id }}>
              {t.userby_name ?? t.userby_username}
            </Link>
          </>
        ) : (
          'Own'
        ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (t) => (
        <span className={`badge ${t.status === 'active' ? 'green' : 'grey'}`}>{capitalised(t.status)}</span>
      ),
    },
  ];
}

const WITHDRAWAL_COLUMNS: DataColumn<Withdrawal>[] = [
  { id: 'date', header: 'Date', cell: (w) => <DateTime iso={w.created_at} /> },
  { id: 'kind', header: 'Kind', cell: (w) => WITHDRAWAL_TEXT.kindNames[w.kind] },
  {
    id: 'amount',
    header: 'Amount',
    className: 'num nowrap',
    cell: (w) => (
      <>
        {formatUsd(w.amount)}
        <br />
        <span className="muted">net {formatUsd(w.net_amount)}</span>
      </>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    cell: (w) => (
      <span className={`badge ${WITHDRAWAL_BADGE[w.status]}`} data-testid="member-withdrawal-status">
        {WITHDRAWAL_TEXT.status[w.status]}
      </span>
    ),
  },
  {
    id: 'review',
    header: 'Action',
    // The queue opens the request with the member's money beside it and the decision.
    cell: (w) => (
      <Link
        to="/admin/withdrawals"
        search={{ open: w.id }}
        className="button small row-link"
        aria-label={`${WITHDRAWAL_TEXT.review} ${WITHDRAWAL_TEXT.kindNames[w.kind]}, ${formatUsd(w.amount)}`}
      >
        {WITHDRAWAL_TEXT.review}
      </Link>
    ),
  },
];

const DEPOSIT_COLUMNS: DataColumn<Transaction>[] = [
  { id: 'date', header: 'Date', cell: (t) => <DateTime iso={t.created_at} /> },
  { id: 'amount', header: 'Amount', className: 'num', cell: (t) => formatUsd(t.amount) },
  { id: 'description', header: 'Description', cell: (t) => t.description ?? '—' },
  {
    id: 'status',
    header: 'Status',
    cell: (t) => <span className={`badge ${badgeColour(t.status)}`}>{capitalised(t.status)}</span>,
  },
];

const TEAM_COLUMNS: DataColumn<DirectMember>[] = [
  {
    id: 'member',
    header: 'Member',
    cell: (m) => (
      <>
        <Link to="/admin/check/profile/$id" params={{ id: m.id }} className="row-link">
          {m.fullname}
        </Link>
        <br />
        <span className="muted">@{m.username}</span>
      </>
    ),
  },
  { id: 'joined', header: 'Joined', cell: (m) => <DateTime iso={m.created_at} /> },
  { id: 'active', header: 'Active', cell: (m) => <ActiveBadge isActive={m.is_active} /> },
  { id: 'investment', header: 'Invested', className: 'num', cell: (m) => formatUsd(m.investment) },
  { id: 'team', header: 'Their team', className: 'num', cell: (m) => m.team_size },
  { id: 'business', header: 'Team business', className: 'num', cell: (m) => formatUsd(m.team_business) },
];

const TICKET_COLUMNS: DataColumn<Ticket>[] = [
  {
    id: 'subject',
    header: 'Subject',
    cell: (t) => (
      <Link to="/admin/ticket/$ticketId" params={{ ticketId: t.ticket_id }} className="row-link">
        {t.subject}
      </Link>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    cell: (t) => (
      <span className={`badge ${ticketBadgeColour(t.status)}`}>{ticketStatusLabel(t.status)}</span>
    ),
  },
  { id: 'opened', header: 'Opened', cell: (t) => <DateTime iso={t.created_at} /> },
  { id: 'last', header: 'Last activity', cell: (t) => <DateTime iso={t.updated_at} /> },
];

function Investments({ memberId }: { memberId: string }) {
  const query = useQuery(memberTopupsQuery(memberId));
  return (
    <>
      <DataTable
        caption="Investments"
        columns={investmentColumns(memberId)}
        rows={query.data?.topups}
        rowKey={(t) => t.id}
        status={query}
        empty="No investments: this member has not bought a plan or paid for anyone."
        noun={['investment', 'investments']}
        testId="member-investments"
      />
      {query.data && query.data.total > query.data.topups.length ? (
        <p className="muted">
          The newest {query.data.topups.length} of {query.data.total}: every one is on Top-ups, filtered by
          this member.
        </p>
      ) : null}
    </>
  );
}

function Withdrawals({ memberId }: { memberId: string }) {
  const query = useQuery(memberWithdrawalsQuery(memberId));
  return (
    <DataTable
      caption="Withdrawal requests"
      columns={WITHDRAWAL_COLUMNS}
      rows={query.data}
      rowKey={(w) => w.id}
      status={query}
      empty="No withdrawal requests."
      noun={['request', 'requests']}
      testId="member-withdrawals"
    />
  );
}

function Deposits({ memberId }: { memberId: string }) {
  const query = useQuery(memberDepositsQuery(memberId));
  return (
    <>
      <p className="muted">
        Deposits credited to the member, from every path (payments, on-chain and manual). Deposits still
        waiting for a decision are on <Link to="/admin/deposits">Deposits</Link> and{' '}
        <Link to="/admin/web3">On-chain USDT</Link>.
      </p>
      <DataTable
        caption="Deposits credited"
        columns={DEPOSIT_COLUMNS}
        rows={query.data?.transactions}
        rowKey={(t) => t.transaction_id}
        status={query}
        empty="No deposits credited."
        noun={['deposit', 'deposits']}
        testId="member-deposits"
      />
      {query.data && query.data.total > query.data.transactions.length ? (
        <p className="muted">
          The newest {query.data.transactions.length} of {query.data.total}.
        </p>
      ) : null}
    </>
  );
}

function Team({ memberId }: { memberId: string }) {
  const query = useQuery(memberTeamQuery(memberId));
  return (
    <DataTable
      caption="Direct members"
      columns={TEAM_COLUMNS}
      rows={query.data}
      rowKey={(m) => m.id}
      status={query}
      empty="No direct members: nobody joined with this member's referral code."
      noun={['direct member', 'direct members']}
      testId="member-team"
    />
  );
}

function Tickets({ memberId }: { memberId: string }) {
  const query = useQuery(memberTicketsQuery(memberId));
  return (
    <DataTable
      caption="Tickets"
      columns={TICKET_COLUMNS}
      rows={query.data}
      rowKey={(t) => t.ticket_id}
      status={query}
      empty="No tickets."
      noun={['ticket', 'tickets']}
      testId="member-tickets"
    />
  );
}

/**
 * One member's investments, withdrawals, deposits, team and tickets, a tab each (kept in the address),
 * each read when its tab opens from the admin call that already lists it for one member.
 */
export function MemberRecords({
  memberId,
  tab,
  onTab,
}: {
  memberId: string;
  tab: MemberRecordTab;
  onTab: (tab: MemberRecordTab) => void;
}) {
  return (
    <section className="card stack" aria-labelledby="records-title">
      <h2 id="records-title">Records</h2>
      <Tabs label="Member records" tabs={TABS} active={tab} onChange={onTab}>
        {tab === 'investments' ? <Investments memberId={memberId} /> : null}
        {tab === 'withdrawals' ? <Withdrawals memberId={memberId} /> : null}
        {tab === 'deposits' ? <Deposits memberId={memberId} /> : null}
        {tab === 'team' ? <Team memberId={memberId} /> : null}
        {tab === 'tickets' ? <Tickets memberId={memberId} /> : null}
      </Tabs>
    </section>
  );
}
