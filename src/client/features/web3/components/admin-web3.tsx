import { useQuery } from '@tanstack/react-query';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import '../web3.css';
import { useState } from 'react';
import {
  WEB3_DEPOSIT_STATUSES,
  WEB3_EXPLORER_TX_URL,
  WEB3_STATUS_LABELS,
  type Web3Deposit,
  type Web3DepositStatus,
  web3ApproveSchema,
  web3AssignSchema,
  web3RejectSchema,
} from '../../../../shared/web3.ts';
import { formatDateTime } from '../../../lib/format.ts';
import type { DataColumn } from '../../../ui/data-table.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { type ReviewAction, ReviewTable, reasonField, type StatusFilter } from '../../../ui/review-table.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import {
  allWeb3DepositsQuery,
  approveWeb3Deposit,
  assignWeb3Deposit,
  refreshAfterWeb3,
  rejectWeb3Deposit,
  web3SettingsQuery,
} from '../api.ts';
import { Web3StatusBadge } from './web3-status-badge.tsx';

const waiting = (d: Web3Deposit) => d.status === 'awaiting_admin' || d.status === 'pending';

/** The settings in use (GET /web3/settings). */
export function Web3SettingsCard() {
  const query = useQuery(web3SettingsQuery);
  if (query.isPending) return <Spinner label="Loading the settings" />;
  if (query.error) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  const s = query.data.settings;
  const rows: [string, string][] = [
    ['Chain', `${s.chain_name} (chain id ${s.chain_id})`],
    ['Token contract', s.token_contract ?? 'Not set'],
    ['Deposit address', s.deposit_address ?? 'Not set'],
    ['Confirmations required', String(s.required_confirmations)],
    ['Chain check (RPC)', s.rpc_configured ? 'On' : 'Off: every deposit waits for an admin'],
    ['WalletConnect project id', s.walletconnect_configured ? 'Set' : 'Not set'],
  ];
  return (
    <section className="card" aria-labelledby="web3-settings-title" data-testid="web3-settings">
      <h2 id="web3-settings-title">Settings in use</h2>
      <dl className="web3-details">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd className={value.startsWith('0x') ? 'web3-address' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">Set by the server's environment (see the deployment guide).</p>
    </section>
  );
}

/** The transaction on the block explorer, where the admin checks it before deciding. */
function TxLink({ hash }: { hash: string }) {
  return (
    <a
      className="web3-address"
      href={`${WEB3_EXPLORER_TX_URL}${hash}`}
      target="_blank"
      rel="noopener noreferrer"
    >
      {hash}
    </a>
  );
}

function columns(): DataColumn<Web3Deposit>[] {
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
          <span className="muted">{d.username}</span>
        </>
      ),
      sortValue: (d) => d.fullname,
      searchText: (d) => `${d.fullname} ${d.username}`,
      csv: (d) => d.username,
    },
    {
      id: 'amount',
      header: 'Amount (USD)',
      cell: (d) => (d.amount ? formatUsd(d.amount) : '—'),
      sortValue: (d) => (d.amount ? (parseCents(d.amount) ?? 0) : 0),
      csv: (d) => d.amount ?? '',
      className: 'num',
      descFirst: true,
    },
    {
      id: 'hash',
      header: 'Transaction',
      cell: (d) => <TxLink hash={d.tx_hash} />,
      searchText: (d) => d.tx_hash,
      csv: (d) => d.tx_hash,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => (
        <>
          <Web3StatusBadge deposit={d} />
          {d.reason ? <span className="web3-reason muted">{d.reason}</span> : null}
        </>
      ),
      sortValue: (d) => WEB3_STATUS_LABELS[d.status],
      csv: (d) => d.status,
    },
  ];
}

const approve: ReviewAction<Web3Deposit, typeof web3ApproveSchema> = {
  title: 'Approve on-chain deposit',
  fields: [
    {
      name: 'amount',
      label: 'Amount received (USD)',
      inputMode: 'decimal',
      hint: 'The USDT the transaction sent to the deposit address; credited to the Active Wallet once',
      initial: (d) => d.amount ?? '',
    },
    reasonField('Note (optional)'),
  ],
  schema: web3ApproveSchema,
  // The server answers 409 unless the amount is the one the chain showed (when it showed one).
  toInput: ({ amount, reason = '' }) => ({ amount, ...(reason.trim() ? { reason } : {}) }),
  send: (input, d) => approveWeb3Deposit(d.id, input),
};

const reject: ReviewAction<Web3Deposit, typeof web3RejectSchema> = {
  title: 'Reject on-chain deposit',
  fields: [reasonField('Reason (shown to the member)')],
  schema: web3RejectSchema,
  toInput: ({ reason }) => ({ reason }),
  send: (input, d) => rejectWeb3Deposit(d.id, input.reason),
};

// The member who sent it may not be the one who submitted its hash: an admin who checked hands it to
// them (audited). With the chain check it is read again for them at once; a credited one is final.
const assign: ReviewAction<Web3Deposit, typeof web3AssignSchema> = {
  title: 'Assign on-chain deposit to another member',
  explain: () => (
    <p className="muted">
      The deposit goes to the member whose wallet sent it. It is credited to them once their proven wallet
      sent it, or when you approve it.
    </p>
  ),
  fields: [
    {
      name: 'user_id',
      label: 'Member id',
      hint: 'The id on the member’s page (Members, then the member)',
      maxLength: 100,
    },
    reasonField('Reason (kept in the audit log)'),
  ],
  schema: web3AssignSchema,
  toInput: ({ user_id = '', reason = '' }) => ({ user_id, reason }),
  send: (input, d) => assignWeb3Deposit(d.id, input),
};

/** Every on-chain deposit; an admin approves (with the amount checked on chain) or rejects those waiting. */
export function AdminWeb3Deposits(filter: StatusFilter<Web3DepositStatus>) {
  const query = useQuery(allWeb3DepositsQuery(filter.status));
  const [tableColumns] = useState(columns);
  return (
    <ReviewTable
      title="On-chain deposits"
      headingId="web3-deposits-title"
      columns={tableColumns}
      rows={query.data?.deposits}
      query={query}
      table={{
        rowProps: (d) => ({ 'data-deposit-id': d.id, 'data-status': d.status }),
        noun: ['on-chain deposit', 'on-chain deposits'],
        testId: 'admin-web3-deposits',
        searchLabel: 'Search by member or hash',
        csvName: 'on-chain-deposits',
      }}
      filter={{
        label: 'Filter by status',
        name: 'web3-status',
        statuses: WEB3_DEPOSIT_STATUSES,
        labels: WEB3_STATUS_LABELS,
      }}
      {...filter}
      canDecide={waiting}
      actionsClassName="web3-actions"
      summary={(d) => (
        <p>
          {d.fullname} ({d.username}) sent transaction <TxLink hash={d.tx_hash} />. Check it on the block
          explorer first.
        </p>
      )}
      approve={approve}
      reject={reject}
      assign={{ action: assign, allowed: (d) => d.status !== 'credited' }}
      refresh={refreshAfterWeb3}
    />
  );
}
