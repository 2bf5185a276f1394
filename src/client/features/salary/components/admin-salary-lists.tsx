import { keepPreviousData, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import type { SalaryPage, SalaryPayment, UserSalary } from '../../../../shared/salary.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { formatUtcMonth } from '../../../lib/utc-days.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { Tabs } from '../../../ui/tabs.tsx';
import { type SalaryListFilter, salaryTransactionsQuery, userSalariesQuery } from '../api.ts';

// The two paged admin lists of spec 7 "Salary": every payment, and each member's totals, a page at a
// time from the server, by month and a search.

const PAGE_SIZE = 20;

const member = (r: { fullname: string; username: string }) => (
  <>
    {r.fullname}
    <br />
    <span className="muted">@{r.username}</span>
  </>
);

const PAYMENT_COLUMNS: DataColumn<SalaryPayment>[] = [
  { id: 'month', header: 'Month (UTC)', cell: (p) => formatUtcMonth(p.month, { zone: false }) },
  { id: 'member', header: 'Member', cell: member },
  { id: 'tier', header: 'Tier', cell: (p) => p.tier_name },
  { id: 'amount', header: 'Salary', className: 'num', cell: (p) => formatUsd(p.amount) },
  {
    id: 'qualified',
    header: 'New business · active directs',
    className: 'num',
    cell: (p) => `${formatUsd(p.new_business)} · ${p.active_directs}`,
  },
  { id: 'paid', header: 'Paid', cell: (p) => `${formatDateTime(p.created_at)} (${p.trigger})` },
];

const MEMBER_COLUMNS: DataColumn<UserSalary>[] = [
  { id: 'member', header: 'Member', cell: member },
  { id: 'months', header: 'Months paid', className: 'num', cell: (u) => u.months_paid },
  { id: 'total', header: 'Total', className: 'num', cell: (u) => formatUsd(u.total) },
  { id: 'last', header: 'Last month (UTC)', cell: (u) => formatUtcMonth(u.last_month, { zone: false }) },
];

type Tab = 'payments' | 'members';

export function AdminSalaryLists() {
  const [tab, setTab] = useState<Tab>('payments');
  const [month, setMonth] = useState('');
  return (
    <div className="stack">
      <label className="field">
        <span>Month (UTC; empty: every month)</span>
        <input type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
      </label>
      <Tabs
        label="Salary lists"
        tabs={[
          { key: 'payments', label: 'Payments' },
          { key: 'members', label: 'Members paid' },
        ]}
        active={tab}
        onChange={setTab}
      >
        {tab === 'payments' ? <PaymentsList month={month} /> : <MembersList month={month} />}
      </Tabs>
    </div>
  );
}

function useFilter(month: string) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [shownMonth, setShownMonth] = useState(month);
  if (shownMonth !== month) {
    setShownMonth(month);
    setPage(1);
  }
  const filter: SalaryListFilter = {
    page,
    limit: PAGE_SIZE,
    ...(month ? { month } : {}),
    ...(search ? { search } : {}),
  };
  return { filter, setPage, search, setSearch };
}

function PaymentsList({ month }: { month: string }) {
  return (
    <PagedSalaryList
      month={month}
      load={salaryTransactionsQuery}
      caption="Salary payments"
      columns={PAYMENT_COLUMNS}
      rowKey={(p) => p.id}
      empty="No salary has been paid yet."
      noun={['payment', 'payments']}
      testId="salary-payments"
      searchLabel="Search member or tier"
    />
  );
}

function MembersList({ month }: { month: string }) {
  return (
    <PagedSalaryList
      month={month}
      load={userSalariesQuery}
      caption="Members paid a salary"
      columns={MEMBER_COLUMNS}
      rowKey={(u) => u.user_id}
      empty="No member has been paid a salary yet."
      noun={['member', 'members']}
      testId="salary-members"
      searchLabel="Search member"
    />
  );
}

/** One of the paged lists: a page at a time from the server, under the month and the list's own search. */
function PagedSalaryList<Row extends object>({
  month,
  load,
  caption,
  columns,
  rowKey,
  empty,
  noun,
  testId,
  searchLabel,
}: {
  month: string;
  load: (
    filter: SalaryListFilter,
  ) => UseQueryOptions<SalaryPage<Row>, Error, SalaryPage<Row>, (string | SalaryListFilter)[]>;
  caption: string;
  columns: DataColumn<Row>[];
  rowKey: (row: Row) => string;
  empty: string;
  noun: readonly [string, string];
  testId: string;
  searchLabel: string;
}) {
  const { filter, setPage, search, setSearch } = useFilter(month);
  const query = useQuery({ ...load(filter), placeholderData: keepPreviousData });
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={query.data?.data}
      rowKey={rowKey}
      status={query}
      empty={empty}
      noun={noun}
      testId={testId}
      searchLabel={searchLabel}
      pageSize={PAGE_SIZE}
      server={{
        page: filter.page,
        pages: query.data?.total_pages ?? 1,
        total: query.data?.total ?? 0,
        onPage: setPage,
        search,
        onSearch: (text) => {
          setSearch(text);
          setPage(1);
        },
      }}
    />
  );
}
