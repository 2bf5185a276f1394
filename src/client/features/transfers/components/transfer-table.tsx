import { badgeColour, type Transfer } from '../../../../shared/transfers.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { transferParty } from '../api.ts';

const STATUS_LABEL: Record<string, string> = { completed: 'Completed', pending: 'Pending', failed: 'Failed' };

/** Spec 4: completed green, pending yellow, failed red, anything else grey. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${badgeColour(status)}`} data-status={status}>
      {STATUS_LABEL[status] ?? status}
    </span>
  );
}

/** "-$10.50" sent, "+$10.50" received. */
export function SignedAmount({ transfer, sent }: { transfer: Transfer; sent: boolean }) {
  return (
    <span className={sent ? 'amount-out' : 'amount-in'}>
      {sent ? '-' : '+'}
      {formatMoney(transfer.amount)}
    </span>
  );
}

/**
 * The Sent or Received table of spec 2: the other party, signed amount, description, date, status.
 * 'both' (the history's All tab) signs each row by whether the member sent it.
 */
export function TransferTable({
  transfers,
  direction,
  empty,
  caption,
  sentIds,
}: {
  transfers: Transfer[];
  direction: 'sent' | 'received' | 'both';
  empty: string;
  caption: string;
  sentIds?: ReadonlySet<string>;
}) {
  if (transfers.length === 0) return <p className="muted">{empty}</p>;
  const isSent = (t: Transfer) => (direction === 'both' ? Boolean(sentIds?.has(t.id)) : direction === 'sent');
  const partyHeader =
    direction === 'sent' ? 'Recipient' : direction === 'received' ? 'Sender' : 'Sender or recipient';
  return (
    <div className="table-scroll">
      <table className="table" data-testid={`${direction}-table`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{partyHeader}</th>
            <th scope="col">Amount</th>
            <th scope="col">Description</th>
            <th scope="col">Date</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {transfers.map((transfer) => {
            const sent = isSent(transfer);
            const party = transferParty(transfer, sent ? 'sent' : 'received');
            return (
              <tr key={transfer.id}>
                <td>
                  {party.name}
                  <br />
                  <span className="muted">{party.email}</span>
                </td>
                <td>
                  <SignedAmount transfer={transfer} sent={sent} />
                </td>
                <td>{transfer.description || '—'}</td>
                <td className="nowrap">{formatDateTime(transfer.created_at)}</td>
                <td>
                  <StatusBadge status={transfer.status} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
