import { useQuery } from '@tanstack/react-query';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import '../web3.css';
import { useState } from 'react';
import { WEB3_EXPLORER_TX_URL, WEB3_STATUS_LABELS, type Web3Deposit } from '../../../../shared/web3.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { myWeb3DepositsQuery } from '../api.ts';
import { Web3StatusBadge } from './web3-status-badge.tsx';

// Each cell is one element: on a phone a stacked cell lays its label and its content side by side.
function columns(onFollow?: (id: string) => void): DataColumn<Web3Deposit>[] {
  const follow: DataColumn<Web3Deposit>[] = onFollow
    ? [
        {
          id: 'follow',
          header: 'Follow',
          cell: (d) => (
            <button type="button" className="button small" onClick={() => onFollow(d.id)}>
              Follow
            </button>
          ),
        },
      ]
    : [];
  return [
    {
      id: 'amount',
      header: 'Amount',
      cell: (d) => <strong>{d.amount ? formatUsd(d.amount) : '—'}</strong>,
      sortValue: (d) => (d.amount ? (parseCents(d.amount) ?? 0) : 0),
      csv: (d) => d.amount ?? '',
      className: 'num',
      descFirst: true,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => (
        <span>
          <Web3StatusBadge deposit={d} />
          {d.reason && d.status === 'rejected' ? <span className="web3-reason muted">{d.reason}</span> : null}
        </span>
      ),
      sortValue: (d) => WEB3_STATUS_LABELS[d.status],
      csv: (d) => WEB3_STATUS_LABELS[d.status],
    },
    {
      id: 'date',
      header: 'Date',
      cell: (d) => <span>{formatDateTime(d.created_at)}</span>,
      sortValue: (d) => d.created_at,
      csv: (d) => d.created_at,
      descFirst: true,
    },
    {
      id: 'hash',
      header: 'Transaction',
      cell: (d) => (
        <a
          className="web3-address"
          href={`${WEB3_EXPLORER_TX_URL}${d.tx_hash}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          {d.tx_hash}
        </a>
      ),
      searchText: (d) => d.tx_hash,
      csv: (d) => d.tx_hash,
    },
    ...follow,
  ];
}

/** The member's on-chain deposits, newest first (on /user/web3-deposit and /user/deposit-history). */
export function MyWeb3Deposits({ onFollow }: { onFollow?: (id: string) => void }) {
  const query = useQuery(myWeb3DepositsQuery);
  const [tableColumns] = useState(() => columns(onFollow));
  return (
    <div data-testid="web3-deposit-list">
      <DataTable
        caption="Your on-chain deposits"
        columns={tableColumns}
        rows={query.data?.deposits}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-deposit-id': d.id, 'data-status': d.status })}
        status={query}
        empty={'No on-chain deposits yet.'}
        noun={['on-chain deposit', 'on-chain deposits']}
        testId="web3-deposits"
        layout="stacked"
        searchLabel="Search by transaction hash"
        csvName="on-chain-deposits"
        initialSort={{ id: 'date', desc: true }}
        pageSize={10}
      />
    </div>
  );
}

/** The section /user/deposit-history loads lazily. */
export default function Web3DepositsSection() {
  return (
    <div className="stack">
      <h2>Your on-chain deposits</h2>
      <MyWeb3Deposits />
    </div>
  );
}
