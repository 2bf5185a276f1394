import { useQuery, useQueryClient } from '@tanstack/react-query';
import '../web3.css';
import { type FormEvent, useEffect, useState } from 'react';
import { parseCents } from '../../../../shared/money.ts';
import {
  WEB3_DEPOSIT_STATUSES,
  WEB3_EXPLORER_TX_URL,
  WEB3_STATUS_LABELS,
  type Web3Deposit,
  type Web3DepositStatus,
  web3ApproveSchema,
  web3RejectSchema,
} from '../../../../shared/web3.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { FormField, SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import {
  allWeb3DepositsQuery,
  approveWeb3Deposit,
  refreshAfterWeb3,
  rejectWeb3Deposit,
  web3SettingsQuery,
} from '../api.ts';
import { Web3StatusBadge } from './web3-status-badge.tsx';

type Decision = { deposit: Web3Deposit; action: 'approve' | 'reject' };
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

function columns(onDecide: (d: Decision) => void): DataColumn<Web3Deposit>[] {
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
      cell: (d) => (d.amount ? formatMoney(d.amount) : '—'),
      sortValue: (d) => (d.amount ? (parseCents(d.amount) ?? 0) : 0),
      csv: (d) => d.amount ?? '',
      className: 'num',
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
    {
      id: 'action',
      header: 'Action',
      cell: (d) =>
        waiting(d) ? (
          <div className="web3-actions">
            <button
              type="button"
              className="button small primary"
              onClick={() => onDecide({ deposit: d, action: 'approve' })}
            >
              Approve
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() => onDecide({ deposit: d, action: 'reject' })}
            >
              Reject
            </button>
          </div>
        ) : null,
    },
  ];
}

/** Every on-chain deposit; an admin approves (with the amount checked on chain) or rejects those waiting. */
export function AdminWeb3Deposits({
  status,
  onStatus,
}: {
  status: Web3DepositStatus | undefined;
  onStatus: (status: Web3DepositStatus | undefined) => void;
}) {
  const query = useQuery(allWeb3DepositsQuery(status));
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const [done, setDone] = useState('');
  const [tableColumns] = useState(() =>
    columns((decision) => {
      setDone('');
      setDeciding(decision);
    }),
  );
  return (
    <section className="card" aria-labelledby="web3-deposits-title">
      <h2 id="web3-deposits-title">On-chain deposits</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption="On-chain deposits"
        columns={tableColumns}
        rows={query.data?.deposits}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-deposit-id': d.id, 'data-status': d.status })}
        status={query}
        empty={`No on-chain deposits${status ? ` with the status ${WEB3_STATUS_LABELS[status]}` : ''}.`}
        noun={['on-chain deposit', 'on-chain deposits']}
        testId="admin-web3-deposits"
        searchLabel="Search by member or hash"
        csvName="on-chain-deposits"
        initialSort={{ id: 'date', desc: true }}
        pageSize={25}
        toolbar={
          <SelectField
            label="Filter by status"
            name="web3-status"
            value={status ?? ''}
            onChange={(e) => onStatus((e.target.value || undefined) as Web3DepositStatus | undefined)}
          >
            <option value="">All statuses</option>
            {WEB3_DEPOSIT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {WEB3_STATUS_LABELS[s]}
              </option>
            ))}
          </SelectField>
        }
      />
      <DecisionDialog
        decision={deciding}
        onClose={() => setDeciding(null)}
        onDecided={(message) => {
          setDeciding(null);
          setDone(message);
        }}
      />
    </section>
  );
}

function DecisionDialog({
  decision,
  onClose,
  onDecided,
}: {
  decision: Decision | null;
  onClose: () => void;
  onDecided: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();

  useEffect(() => {
    setAmount(decision?.deposit.amount ?? '');
    setReason('');
    setFailure('');
    setErrors({});
  }, [decision, setErrors]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!decision || offline) return;
    const { deposit, action } = decision;
    setFailure('');
    const onError = (text: string) => {
      setFailure(text);
      // A 409 means someone decided it meanwhile: the list should say so.
      void refreshAfterWeb3(queryClient);
    };
    if (action === 'approve')
      void submitWith(
        web3ApproveSchema,
        { amount, ...(reason.trim() ? { reason } : {}) },
        async (input) => {
          const { message } = await approveWeb3Deposit(deposit.id, input);
          void refreshAfterWeb3(queryClient);
          onDecided(message);
        },
        onError,
      );
    else
      void submitWith(
        web3RejectSchema,
        { reason },
        async (input) => {
          const { message } = await rejectWeb3Deposit(deposit.id, input.reason);
          void refreshAfterWeb3(queryClient);
          onDecided(message);
        },
        onError,
      );
  }

  const approve = decision?.action === 'approve';
  return (
    <Modal
      open={decision !== null}
      title={approve ? 'Approve on-chain deposit' : 'Reject on-chain deposit'}
      onClose={() => (busy ? undefined : onClose())}
    >
      {decision ? (
        <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
          <p>
            {decision.deposit.fullname} ({decision.deposit.username}) sent transaction{' '}
            <a
              className="web3-address"
              href={`${WEB3_EXPLORER_TX_URL}${decision.deposit.tx_hash}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              {decision.deposit.tx_hash}
            </a>
            . Check it on the block explorer first.
          </p>
          {approve ? (
            <FormField
              label="Amount received (USD)"
              name="amount"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              error={errors.amount}
              hint="The USDT the transaction sent to the deposit address; credited to the Active Wallet once"
              disabled={busy}
            />
          ) : null}
          <TextAreaField
            label={approve ? 'Note (optional)' : 'Reason (shown to the member)'}
            name="reason"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={errors.reason}
            hint="3 to 500 characters"
            disabled={busy}
          />
          {failure ? (
            <p className="field-error" role="alert">
              {failure}
            </p>
          ) : null}
          <MoneyOfflineNote />
          <div className="modal-actions">
            <button type="button" className="button" onClick={onClose} disabled={busy}>
              Go back
            </button>
            <button
              type="submit"
              className={`button ${approve ? 'primary' : 'danger'}`}
              disabled={busy || offline}
            >
              {busy ? 'Saving...' : approve ? 'Approve and credit' : 'Reject'}
            </button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
