import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import { NETWORK_LABELS } from '../../../../shared/profile.ts';
import {
  WITHDRAWAL_KINDS,
  WITHDRAWAL_STATUSES,
  WITHDRAWAL_TEXT,
  type Withdrawal,
  type WithdrawalKind,
  type WithdrawalStatus,
} from '../../../../shared/withdrawals.ts';
import { formatDateTime, shortened } from '../../../lib/format.ts';
import { BreakPoints } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { withdrawalListQuery } from '../api.ts';
import { accountAge } from '../figures.ts';
import '../withdrawals.css';
import { WithdrawalStatusBadge } from './status-badge.tsx';
import { WithdrawalReview } from './withdrawal-review.tsx';

export type AdminFilter = { status?: WithdrawalStatus; kind?: WithdrawalKind; open?: string };

const addressText = (w: Withdrawal) =>
  w.address
    ? `${w.network ? `${NETWORK_LABELS[w.network as 'bep20' | 'trc20'] ?? w.network} ` : ''}${w.address}`
    : '';

function columns(nowMs: number): DataColumn<Withdrawal>[] {
  return [
    {
      id: 'member',
      header: 'Member',
      // The name opens the member's page; the row opens the request (its Review link covers the row).
      cell: (w) => (
        <>
          <Link to="/admin/check/profile/$id" params={{ id: w.user_id }}>
            {w.fullname}
          </Link>
          <br />
          <span className="muted">@{w.username}</span>
          <br />
          <span className="muted">
            <BreakPoints text={w.email} />
          </span>
        </>
      ),
      sortValue: (w) => w.fullname.toLowerCase(),
      searchText: (w) => `${w.fullname} ${w.username} ${w.email} ${w.address ?? ''} ${w.tx_hash ?? ''}`,
      csv: (w) => `${w.fullname} (${w.username}) ${w.email}`,
    },
    {
      id: 'kind',
      header: 'Kind',
      cell: (w) => WITHDRAWAL_TEXT.kindNames[w.kind],
      csv: (w) => w.kind,
      className: 'nowrap',
    },
    {
      // The amount with its fee and the net under it: one column, so the table fits a laptop.
      id: 'amount',
      header: 'Amount',
      cell: (w) => (
        <>
          {formatUsd(w.amount)}
          <br />
          <span className="muted" data-testid="withdrawal-fee">
            fee {formatUsd(w.fee)}
          </span>
          <br />
          <span data-testid="withdrawal-net">net {formatUsd(w.net_amount)}</span>
        </>
      ),
      sortValue: (w) => Number(w.amount),
      csv: (w) => w.amount,
      descFirst: true,
      className: 'num nowrap',
    },
    { id: 'fee', header: 'Fee', cell: () => null, csv: (w) => w.fee, csvOnly: true },
    { id: 'net', header: 'Net', cell: () => null, csv: (w) => w.net_amount, csvOnly: true },
    {
      id: 'address',
      header: 'Address',
      cell: (w) =>
        w.kind === 'compound' ? (
          <span className="muted">{w.plan_name ?? '—'}</span>
        ) : w.address ? (
          <span title={addressText(w)} data-testid="withdrawal-address">
            {w.network ? (NETWORK_LABELS[w.network as 'bep20' | 'trc20'] ?? w.network) : ''}
            <br />
            <span className="nowrap">{shortened(w.address)}</span>
          </span>
        ) : (
          '—'
        ),
      csv: (w) => (w.kind === 'compound' ? (w.plan_name ?? '') : addressText(w)),
    },
    {
      // Two signs of a real, settled account side by side: a verified e-mail and its age.
      id: 'account',
      header: 'Account',
      cell: (w) => (
        <>
          <span className={`badge ${w.email_verified ? 'green' : 'red'}`} data-testid="email-verified">
            {w.email_verified ? 'E-mail verified' : 'E-mail not verified'}
          </span>
          <br />
          <span data-testid="account-age">{accountAge(w.member_since, nowMs)}</span>
        </>
      ),
      sortValue: (w) => w.member_since,
      csv: (w) =>
        `${w.email_verified ? 'e-mail verified' : 'e-mail not verified'}; ${accountAge(w.member_since, nowMs)}`,
    },
    {
      id: 'created',
      header: 'Created',
      cell: (w) => formatDateTime(w.created_at),
      sortValue: (w) => w.created_at,
      csv: (w) => w.created_at,
      descFirst: true,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (w) => <WithdrawalStatusBadge status={w.status} />,
      sortValue: (w) => w.status,
      csv: (w) => w.status,
    },
    {
      id: 'review',
      header: 'Action',
      cell: (w) => (
        <Link
          to="."
          search={(prev) => ({ ...prev, open: w.id })}
          className="button small row-link"
          aria-label={`${WITHDRAWAL_TEXT.review} ${w.fullname}, ${WITHDRAWAL_TEXT.kindNames[w.kind]}, ${formatUsd(w.amount)}`}
        >
          {WITHDRAWAL_TEXT.review}
        </Link>
      ),
    },
  ];
}

/**
 * The admins' one queue of withdrawal requests, every kind: in the server's order (pending first, the
 * oldest at the top, then the decided ones, newest first), filtered by status and kind; Review opens a
 * request with the member's money beside it and the decision.
 */
export function AdminWithdrawals({
  filter,
  onFilter,
}: {
  filter: AdminFilter;
  onFilter: (next: AdminFilter) => void;
}) {
  const query = useQuery(withdrawalListQuery({ status: filter.status, kind: filter.kind }));
  const [tableColumns] = useState(() => columns(Date.now()));

  return (
    <section className="card admin-withdrawals" aria-label="Requests">
      {filter.open ? (
        <WithdrawalReview id={filter.open} onClose={() => onFilter({ ...filter, open: undefined })} />
      ) : null}
      <DataTable
        caption="Withdrawal requests"
        columns={tableColumns}
        rows={query.data}
        rowKey={(w) => w.id}
        rowProps={(w) => ({
          'data-withdrawal-id': w.id,
          'data-status': w.status,
          'data-kind': w.kind,
          'aria-current': w.id === filter.open ? 'true' : undefined,
        })}
        status={query}
        empty="No requests with these filters."
        noun={['request', 'requests']}
        testId="admin-withdrawals"
        searchLabel="Search member, address or hash"
        csvName="withdrawals"
        toolbar={
          <>
            <SelectField
              label="Status"
              name="status"
              value={filter.status ?? ''}
              onChange={(e) =>
                onFilter({
                  ...filter,
                  open: undefined,
                  status: (e.target.value || undefined) as WithdrawalStatus | undefined,
                })
              }
            >
              <option value="">All statuses</option>
              {WITHDRAWAL_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {WITHDRAWAL_TEXT.status[s]}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Kind"
              name="kind"
              value={filter.kind ?? ''}
              onChange={(e) =>
                onFilter({
                  ...filter,
                  open: undefined,
                  kind: (e.target.value || undefined) as WithdrawalKind | undefined,
                })
              }
            >
              <option value="">All kinds</option>
              {WITHDRAWAL_KINDS.map((k) => (
                <option key={k} value={k}>
                  {WITHDRAWAL_TEXT.kindNames[k]}
                </option>
              ))}
            </SelectField>
          </>
        }
      />
    </section>
  );
}
