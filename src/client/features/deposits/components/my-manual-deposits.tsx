import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEPOSIT_STATUS_LABELS, type ManualDeposit } from '../../../../shared/deposits.ts';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { cancelDeposit, myDepositsQuery, refreshAfterDeposit } from '../api.ts';
import { DepositStatusBadge } from './deposit-status-badge.tsx';

// Each cell is one element: on a phone a stacked cell lays its label and its content side by side.
function columns(onCancel: (d: ManualDeposit) => void): DataColumn<ManualDeposit>[] {
  return [
    {
      id: 'amount',
      header: 'Amount',
      cell: (d) => <strong data-testid="manual-deposit-amount">{formatUsd(d.amount)}</strong>,
      sortValue: (d) => parseCents(d.amount) ?? 0,
      csv: (d) => d.amount,
      className: 'num',
      descFirst: true,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => (
        <span>
          <DepositStatusBadge status={d.status} />
          {d.reason && d.status === 'rejected' ? (
            <span className="deposit-reason muted" data-testid="manual-deposit-reason">
              {d.reason}
            </span>
          ) : null}
        </span>
      ),
      sortValue: (d) => DEPOSIT_STATUS_LABELS[d.status],
      csv: (d) => DEPOSIT_STATUS_LABELS[d.status],
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
          <a href={d.image_url} target="_blank" rel="noopener">
            Open
          </a>
        ) : (
          <span>—</span>
        ),
    },
    {
      id: 'action',
      header: 'Action',
      cell: (d) =>
        d.status === 'pending' ? (
          <button type="button" className="button small" onClick={() => onCancel(d)}>
            Cancel
          </button>
        ) : (
          <span>—</span>
        ),
    },
  ];
}

/** The member's manual deposits, newest first; a pending one can be cancelled. */
export function MyManualDeposits() {
  const query = useQuery(myDepositsQuery);
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState<ManualDeposit | null>(null);
  const [busy, setBusy] = useState(false);
  const { banner, success, error } = useAutoClearBanner();
  const [tableColumns] = useState(() => columns(setCancelling));

  async function confirmCancel() {
    if (!cancelling) return;
    setBusy(true);
    try {
      success((await cancelDeposit(cancelling.id)).message);
    } catch (failure) {
      error(errorText(failure));
    } finally {
      setBusy(false);
      setCancelling(null);
      void refreshAfterDeposit(queryClient);
    }
  }

  return (
    <div className="deposit-history" data-testid="manual-deposit-list">
      <MessageBanner banner={banner} />
      <DataTable
        caption="Your manual deposits"
        columns={tableColumns}
        rows={query.data?.deposits}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-deposit-id': d.id, 'data-status': d.status })}
        status={query}
        empty={<span data-testid="manual-deposits-empty">No manual deposits yet.</span>}
        noun={['manual deposit', 'manual deposits']}
        testId="manual-deposits"
        layout="stacked"
        searchLabel="Search by transaction hash"
        csvName="manual-deposits"
        initialSort={{ id: 'date', desc: true }}
        pageSize={10}
      />
      <Modal open={cancelling !== null} title="Cancel this deposit?" onClose={() => setCancelling(null)}>
        {cancelling ? (
          <>
            <p>
              Your manual deposit of {formatUsd(cancelling.amount)} will not be checked. You can send the same
              transaction again later.
            </p>
            <div className="modal-actions">
              <button type="button" className="button" onClick={() => setCancelling(null)} disabled={busy}>
                Go back
              </button>
              <button type="button" className="button danger" onClick={confirmCancel} disabled={busy}>
                Cancel deposit
              </button>
            </div>
          </>
        ) : null}
      </Modal>
    </div>
  );
}
