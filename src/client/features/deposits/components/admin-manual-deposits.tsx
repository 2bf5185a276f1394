import { useQuery } from '@tanstack/react-query';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import '../deposits.css';
import { useState } from 'react';
import {
  DEPOSIT_STATUS_LABELS,
  DEPOSIT_STATUSES,
  type DepositStatus,
  depositDecisionSchema,
  type ManualDeposit,
} from '../../../../shared/deposits.ts';
import { formatDateTime } from '../../../lib/format.ts';
import type { DataColumn } from '../../../ui/data-table.tsx';
import { type ReviewAction, ReviewTable, reasonField, type StatusFilter } from '../../../ui/review-table.tsx';
import { allDepositsQuery, decideDeposit, refreshAfterDeposit } from '../api.ts';
import { DepositStatusBadge } from './deposit-status-badge.tsx';

function columns(): DataColumn<ManualDeposit>[] {
  return [
    {
      id: 'date',
      header: 'Date',
      cell: (d) => formatDateTime(d.created_at),
      sortValue: (d) => d.created_at,
      csv: (d) => d.created_at,
      descFirst: true,
      className: 'one-line',
    },
    {
      id: 'member',
      header: 'Member',
      cell: (d) => (
        <>
          {d.fullname}
          <br />
          <span className="muted break">{d.email}</span>
        </>
      ),
      sortValue: (d) => d.fullname,
      searchText: (d) => `${d.fullname} ${d.username} ${d.email}`,
      csv: (d) => d.email,
    },
    {
      id: 'amount',
      header: 'Amount (USD)',
      cell: (d) => formatUsd(d.amount),
      sortValue: (d) => parseCents(d.amount) ?? 0,
      csv: (d) => d.amount,
      className: 'num',
      descFirst: true,
    },
    {
      id: 'hash',
      header: 'Transaction hash',
      cell: (d) => <span className="deposit-hash">{d.tx_hash}</span>,
      searchText: (d) => d.tx_hash,
      csv: (d) => d.tx_hash,
    },
    {
      id: 'screenshot',
      header: 'Screenshot',
      cell: (d) =>
        d.image_url ? (
          <a href={d.image_url} target="_blank" rel="noopener" data-testid="manual-deposit-screenshot">
            View screenshot
          </a>
        ) : (
          '—'
        ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => (
        <>
          <DepositStatusBadge status={d.status} />
          {d.reason ? <span className="deposit-reason muted">{d.reason}</span> : null}
        </>
      ),
      sortValue: (d) => DEPOSIT_STATUS_LABELS[d.status],
      csv: (d) => d.status,
    },
  ];
}

const pending = (d: ManualDeposit) => d.status === 'pending';

// The amount is the one the member reported: to credit another, the admin rejects with a reason.
const decision = (status: 'approved' | 'rejected', d: ManualDeposit, reason?: string) => ({
  status,
  amount: d.amount,
  user_id: d.user_id,
  ...(status === 'rejected' ? { reason } : {}),
});

const approve: ReviewAction<ManualDeposit, typeof depositDecisionSchema> = {
  title: 'Approve deposit',
  explain: (d) => (
    <p>
      Approving adds {formatUsd(d.amount)} to the member’s Active Wallet, once. To credit another amount,
      reject it with a reason instead.
    </p>
  ),
  fields: [],
  schema: depositDecisionSchema,
  toInput: (_, d) => decision('approved', d),
  send: (input, d) => decideDeposit(d.id, input),
};

const reject: ReviewAction<ManualDeposit, typeof depositDecisionSchema> = {
  title: 'Reject deposit',
  fields: [reasonField('Reason (shown to the member)')],
  schema: depositDecisionSchema,
  toInput: ({ reason }, d) => decision('rejected', d, reason),
  send: (input, d) => decideDeposit(d.id, input),
};

/** Manual deposits for an admin to approve (credits the Active Wallet once) or reject with a reason. */
export function AdminManualDeposits(filter: StatusFilter<DepositStatus>) {
  const query = useQuery(allDepositsQuery(filter.status));
  const [tableColumns] = useState(columns);
  return (
    <ReviewTable
      title="Manual deposits"
      headingId="manual-deposits-title"
      className="card admin-deposits"
      columns={tableColumns}
      rows={query.data?.deposits}
      query={query}
      table={{
        rowProps: (d) => ({ 'data-deposit-id': d.id, 'data-status': d.status }),
        noun: ['manual deposit', 'manual deposits'],
        testId: 'admin-manual-deposits',
        searchLabel: 'Search by member or hash',
        csvName: 'manual-deposits',
      }}
      filter={{
        label: 'Filter manual deposits',
        name: 'manual-status',
        statuses: DEPOSIT_STATUSES,
        labels: DEPOSIT_STATUS_LABELS,
      }}
      {...filter}
      canDecide={pending}
      actionsClassName="deposit-actions"
      summary={(d) => (
        <p>
          {d.fullname} ({d.email}) reports a deposit of {formatUsd(d.amount)}, transaction{' '}
          <span className="deposit-hash">{d.tx_hash}</span>.
        </p>
      )}
      approve={approve}
      reject={reject}
      refresh={refreshAfterDeposit}
    />
  );
}
