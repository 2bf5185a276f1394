import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd } from '../../../../shared/money.ts';
import type { Topup, TopupType } from '../../../../shared/topups.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { topupListQuery } from '../api.ts';
import { who } from './topup-outcome.tsx';

const TYPE_LABEL: Record<TopupType, string> = {
  topup: 'Investment',
  retopup: 'Further investment',
  entry: 'Investment',
  code: 'Activation code',
};

const forWhom = (topup: Topup) => who({ fullname: topup.user_name, username: topup.user_username });
const paidBy = (topup: Topup) =>
  topup.userby_name && topup.userby_username
    ? who({ fullname: topup.userby_name, username: topup.userby_username })
    : 'Activation code';

/**
 * Every top-up the member paid or received, newest first; stacked rows on a phone. "You paid" marks
 * the ones paid from this member's Active Wallet for someone else.
 */
export function TopupList({ memberId }: { memberId: string }) {
  const query = useQuery(topupListQuery);
  const columns: DataColumn<Topup>[] = [
    {
      id: 'date',
      header: 'Date',
      cell: (t) => formatDateTime(t.created_at),
      sortValue: (t) => t.created_at,
      csv: (t) => t.created_at,
      descFirst: true,
      className: 'nowrap',
    },
    {
      id: 'plan',
      header: 'Plan',
      cell: (t) => t.plan_name,
      sortValue: (t) => t.plan_name.toLowerCase(),
      searchText: (t) => `${t.plan_name} ${forWhom(t)} ${paidBy(t)}`,
      csv: (t) => t.plan_name,
    },
    {
      id: 'amount',
      header: 'Amount',
      cell: (t) => formatUsd(t.amount),
      sortValue: (t) => Number(t.amount),
      csv: (t) => t.amount,
      descFirst: true,
      className: 'num nowrap',
    },
    {
      id: 'for',
      header: 'For',
      cell: (t) => <span className="topup-wrap">{t.user_id === memberId ? 'You' : forWhom(t)}</span>,
      csv: (t) => forWhom(t),
    },
    {
      id: 'paid-by',
      header: 'Paid by',
      cell: (t) => <span className="topup-wrap">{t.userby_id === memberId ? 'You' : paidBy(t)}</span>,
      csv: (t) => paidBy(t),
    },
    {
      id: 'type',
      header: 'Type',
      cell: (t) => TYPE_LABEL[t.type],
      csv: (t) => TYPE_LABEL[t.type],
    },
    {
      id: 'status',
      header: 'Status',
      cell: (t) => (
        <span className={`badge ${t.status === 'active' ? 'green' : 'grey'}`}>
          {t.status === 'active' ? 'Active' : 'Completed'}
        </span>
      ),
      csv: (t) => t.status,
    },
    {
      id: 'ref',
      header: 'Reference',
      cell: (t) => <span className="topup-wrap">{t.id}</span>,
      csv: (t) => t.id,
      className: 'hide-stacked',
    },
  ];
  return (
    <section className="card" aria-labelledby="topup-list-title">
      <h2 id="topup-list-title">Your investments</h2>
      {query.data && query.data.total > query.data.topups.length ? (
        <p className="muted">{`The newest ${query.data.topups.length} of your ${query.data.total} investments.`}</p>
      ) : null}
      <DataTable
        caption="Investments you paid or received"
        columns={columns}
        rows={query.data?.topups}
        rowKey={(t) => t.id}
        rowProps={(t) => ({ 'data-plan': t.plan_name })}
        status={query}
        empty="No investments yet: none paid or received."
        emptyAction={
          <Link to="/user/subscription" className="button">
            Choose a plan
          </Link>
        }
        noun={['investment', 'investments']}
        testId="topups"
        searchLabel="Search investments"
        csvName="investments"
        layout="stacked"
        initialSort={{ id: 'date', desc: true }}
        pageSize={10}
      />
    </section>
  );
}
