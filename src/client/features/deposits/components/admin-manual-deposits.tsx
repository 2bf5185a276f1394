import { useQuery, useQueryClient } from '@tanstack/react-query';
import '../deposits.css';
import { type FormEvent, useEffect, useState } from 'react';
import {
  DEPOSIT_STATUS_LABELS,
  DEPOSIT_STATUSES,
  type DepositStatus,
  depositDecisionSchema,
  type ManualDeposit,
} from '../../../../shared/deposits.ts';
import { parseCents } from '../../../../shared/money.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { SelectField, TextAreaField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { allDepositsQuery, decideDeposit, refreshAfterDeposit } from '../api.ts';
import { DepositStatusBadge } from './deposit-status-badge.tsx';

type Decision = { deposit: ManualDeposit; status: 'approved' | 'rejected' };

function columns(onDecide: (d: Decision) => void): DataColumn<ManualDeposit>[] {
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
      cell: (d) => formatMoney(d.amount),
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
    {
      id: 'action',
      header: 'Action',
      cell: (d) =>
        d.status === 'pending' ? (
          <div className="deposit-actions">
            <button
              type="button"
              className="button small primary"
              onClick={() => onDecide({ deposit: d, status: 'approved' })}
            >
              Approve
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() => onDecide({ deposit: d, status: 'rejected' })}
            >
              Reject
            </button>
          </div>
        ) : null,
    },
  ];
}

/** Manual deposits for an admin to approve (credits the Active Wallet once) or reject with a reason. */
export function AdminManualDeposits({
  status,
  onStatus,
}: {
  status: DepositStatus | undefined;
  onStatus: (status: DepositStatus | undefined) => void;
}) {
  const query = useQuery(allDepositsQuery(status));
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const [done, setDone] = useState('');
  const [tableColumns] = useState(() =>
    columns((decision) => {
      setDone('');
      setDeciding(decision);
    }),
  );

  return (
    <section className="card admin-deposits" aria-labelledby="manual-deposits-title">
      <h2 id="manual-deposits-title">Manual deposits</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption="Manual deposits"
        columns={tableColumns}
        rows={query.data?.deposits}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-deposit-id': d.id, 'data-status': d.status })}
        status={query}
        empty={`No manual deposits${status ? ` with the status ${DEPOSIT_STATUS_LABELS[status]}` : ''}.`}
        noun={['manual deposit', 'manual deposits']}
        testId="admin-manual-deposits"
        searchLabel="Search by member or hash"
        csvName="manual-deposits"
        initialSort={{ id: 'date', desc: true }}
        pageSize={25}
        toolbar={
          <SelectField
            label="Filter manual deposits"
            name="manual-status"
            value={status ?? ''}
            onChange={(e) => onStatus((e.target.value || undefined) as DepositStatus | undefined)}
          >
            <option value="">All statuses</option>
            {DEPOSIT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {DEPOSIT_STATUS_LABELS[s]}
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
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new deposit opened starts with an empty form
  useEffect(() => {
    setReason('');
    setFailure('');
    setErrors({});
  }, [decision, setErrors]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!decision || offline) return;
    const { deposit, status } = decision;
    setFailure('');
    void submitWith(
      depositDecisionSchema,
      {
        status,
        amount: deposit.amount,
        user_id: deposit.user_id,
        ...(status === 'rejected' ? { reason } : {}),
      },
      async (input) => {
        const { message } = await decideDeposit(deposit.id, input);
        void refreshAfterDeposit(queryClient);
        onDecided(message);
      },
      (text) => {
        setFailure(text);
        // A 409 means someone decided it meanwhile: the list should say so.
        void refreshAfterDeposit(queryClient);
      },
    );
  }

  const approve = decision?.status === 'approved';
  return (
    <Modal
      open={decision !== null}
      title={approve ? 'Approve deposit' : 'Reject deposit'}
      onClose={() => (busy ? undefined : onClose())}
    >
      {decision ? (
        <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
          <p>
            {decision.deposit.fullname} ({decision.deposit.email}) reports a deposit of{' '}
            {formatMoney(decision.deposit.amount)}, transaction{' '}
            <span className="deposit-hash">{decision.deposit.tx_hash}</span>.
          </p>
          {approve ? (
            <p>
              Approving adds {formatMoney(decision.deposit.amount)} to the member’s Active Wallet, once. To
              credit another amount, reject it with a reason instead.
            </p>
          ) : (
            <TextAreaField
              label="Reason (shown to the member)"
              name="reason"
              rows={3}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              error={errors.reason}
              hint="3 to 500 characters"
              disabled={busy}
            />
          )}
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
