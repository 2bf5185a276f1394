import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatCents, formatUsd } from '../../../../shared/money.ts';
import { compoundAmountSchema, WITHDRAWAL_TEXT, type Withdrawal } from '../../../../shared/withdrawals.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import {
  cancelWithdrawal,
  changeCompoundAmount,
  refreshAfterWithdrawal,
  withdrawalListQuery,
} from '../api.ts';
import { WithdrawalStatusBadge } from './status-badge.tsx';

type Action = { kind: 'cancel' | 'amount'; withdrawal: Withdrawal };

/** What became of a request: the payout's hash, the reason it was turned down, or its plan. */
function outcome(w: Withdrawal) {
  if (w.status === 'rejected' && w.reason) return w.reason;
  if (w.tx_hash) return w.tx_hash;
  if (w.kind === 'compound' && w.plan_name) return w.plan_name;
  return '—';
}

function columns(act: (action: Action) => void, busy: boolean): DataColumn<Withdrawal>[] {
  return [
    {
      id: 'date',
      header: 'Date',
      cell: (w) => formatDateTime(w.created_at),
      sortValue: (w) => w.created_at,
      csv: (w) => w.created_at,
      descFirst: true,
      className: 'nowrap',
    },
    {
      id: 'kind',
      header: 'Kind',
      cell: (w) => WITHDRAWAL_TEXT.kindNames[w.kind],
      csv: (w) => w.kind,
    },
    {
      id: 'amount',
      header: 'Amount',
      cell: (w) => formatUsd(w.amount),
      sortValue: (w) => Number(w.amount),
      csv: (w) => w.amount,
      className: 'num nowrap',
    },
    { id: 'fee', header: 'Fee', cell: (w) => formatUsd(w.fee), csv: (w) => w.fee, className: 'num nowrap' },
    {
      id: 'net',
      header: 'Net',
      cell: (w) => formatUsd(w.net_amount),
      csv: (w) => w.net_amount,
      className: 'num nowrap',
    },
    {
      id: 'status',
      header: 'Status',
      cell: (w) => <WithdrawalStatusBadge status={w.status} />,
      csv: (w) => w.status,
    },
    {
      id: 'outcome',
      header: 'Details',
      cell: (w) => <span className="withdrawal-wrap">{outcome(w)}</span>,
      csv: (w) => outcome(w),
    },
    {
      id: 'action',
      header: 'Action',
      cell: (w) =>
        w.status === 'pending' ? (
          <div className="row">
            {w.kind === 'compound' ? (
              <button
                type="button"
                className="button small"
                disabled={busy}
                onClick={() => act({ kind: 'amount', withdrawal: w })}
              >
                {WITHDRAWAL_TEXT.changeAmount}
              </button>
            ) : null}
            <button
              type="button"
              className="button small danger"
              disabled={busy}
              onClick={() => act({ kind: 'cancel', withdrawal: w })}
            >
              {WITHDRAWAL_TEXT.cancel}
            </button>
          </div>
        ) : null,
    },
  ];
}

/** The member's requests, newest first, stacked on a phone; a pending one can be cancelled. */
export function MemberRequests() {
  const queryClient = useQueryClient();
  const query = useQuery(withdrawalListQuery());
  const [action, setAction] = useState<Action | null>(null);
  const [amount, setAmount] = useState('');
  const [failure, setFailure] = useState('');
  const [cancelling, setCancelling] = useState(false);
  const banner = useAutoClearBanner();
  const { errors, setErrors, busy, submit } = useSchemaForm();
  const { offline } = useOffline();

  const open = (next: Action) => {
    setErrors({});
    setFailure('');
    setAmount(next.kind === 'amount' ? next.withdrawal.amount : '');
    setAction(next);
  };

  async function finish(work: () => Promise<{ message: string }>) {
    try {
      banner.success((await work()).message);
      setAction(null);
    } finally {
      void refreshAfterWithdrawal(queryClient);
    }
  }

  async function confirmCancel() {
    if (!action || offline) return;
    const { withdrawal } = action;
    setCancelling(true);
    try {
      await finish(() => cancelWithdrawal(withdrawal.id));
    } catch (error) {
      setAction(null);
      banner.error(errorText(error));
    } finally {
      setCancelling(false);
    }
  }

  function saveAmount(event: FormEvent) {
    event.preventDefault();
    if (!action || offline) return;
    const { withdrawal } = action;
    setFailure('');
    void submit(
      compoundAmountSchema,
      { id: withdrawal.id, amount },
      (input) => finish(() => changeCompoundAmount(input.id, formatCents(input.amount))),
      setFailure,
    );
  }

  const toCancel = action?.kind === 'cancel' ? action.withdrawal : null;
  const changing = action?.kind === 'amount' ? action.withdrawal : null;
  return (
    <section className="card" aria-labelledby="withdrawal-requests-title">
      <h2 id="withdrawal-requests-title">{WITHDRAWAL_TEXT.requestsTitle}</h2>
      <MessageBanner banner={banner.banner} />
      <DataTable
        caption={WITHDRAWAL_TEXT.requestsTitle}
        columns={columns(open, busy || cancelling)}
        rows={query.data}
        rowKey={(w) => w.id}
        rowProps={(w) => ({ 'data-withdrawal-id': w.id, 'data-status': w.status })}
        status={query}
        empty={WITHDRAWAL_TEXT.noRequests}
        noun={['request', 'requests']}
        testId="withdrawal-requests"
        layout="stacked"
        initialSort={{ id: 'date', desc: true }}
        pageSize={10}
      />
      <Modal
        open={toCancel !== null}
        title={WITHDRAWAL_TEXT.cancelTitle}
        onClose={() => (cancelling ? undefined : setAction(null))}
        tone="warning"
      >
        {toCancel ? <p>{WITHDRAWAL_TEXT.cancelQuestion(formatUsd(toCancel.amount))}</p> : null}
        <MoneyOfflineNote />
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setAction(null)} disabled={cancelling}>
            {WITHDRAWAL_TEXT.keep}
          </button>
          <button
            type="button"
            className="button danger"
            onClick={() => void confirmCancel()}
            disabled={cancelling || offline}
          >
            {cancelling ? WITHDRAWAL_TEXT.saving : WITHDRAWAL_TEXT.confirmCancel}
          </button>
        </div>
      </Modal>
      <Modal
        open={changing !== null}
        title={WITHDRAWAL_TEXT.changeAmount}
        onClose={() => (busy ? undefined : setAction(null))}
      >
        <form className="form" onSubmit={saveAmount} noValidate aria-busy={busy}>
          <FormField
            label={WITHDRAWAL_TEXT.newAmount}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={errors.amount}
            disabled={busy}
          />
          {failure ? (
            <p className="field-error" role="alert">
              {failure}
            </p>
          ) : null}
          <MoneyOfflineNote />
          <div className="modal-actions">
            <button type="button" className="button" onClick={() => setAction(null)} disabled={busy}>
              {WITHDRAWAL_TEXT.goBack}
            </button>
            <button type="submit" className="button primary" disabled={busy || offline}>
              {busy ? WITHDRAWAL_TEXT.saving : WITHDRAWAL_TEXT.save}
            </button>
          </div>
        </form>
      </Modal>
    </section>
  );
}
