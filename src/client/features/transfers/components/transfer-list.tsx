import type { ReactNode } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import { badgeColour, type Transfer } from '../../../../shared/transfers.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { ActivityList } from '../../../ui/activity-list.tsx';
import { transferParty } from '../api.ts';
import '../transfers.css';

const STATUS_LABEL: Record<string, string> = { completed: 'Completed', pending: 'Pending', failed: 'Failed' };

/** Spec 4: completed green, pending yellow, failed red, anything else grey. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${badgeColour(status)}`} data-status={status}>
      {STATUS_LABEL[status] ?? status}
    </span>
  );
}

/** "−$10.50" sent, "+$10.50" received. */
export function SignedAmount({ transfer, sent }: { transfer: Transfer; sent: boolean }) {
  return (
    <span className={sent ? 'amount-out' : 'amount-in'} data-testid="amount">
      {formatUsd(sent ? `-${transfer.amount}` : transfer.amount, 'always')}
    </span>
  );
}

/**
 * The Sent or Received list of spec 2 (the spec's table columns: the other party's name and e-mail,
 * signed amount, description, date, status), as the stacked rows of Recent Activity under a heading
 * for each day (ui/activity-list.tsx), so that a phone shows the date and status without scrolling
 * sideways. 'both' (the history's All tab) signs each row
 * by whether the member sent it. No screen shows one transfer, so a row opens nothing.
 */
export function TransferList({
  transfers,
  direction,
  empty,
  emptyAction,
  caption,
  sentIds,
}: {
  transfers: Transfer[];
  direction: 'sent' | 'received' | 'both';
  empty: string;
  /** An empty list's next step (e.g. the transfer form), under the spec's empty text. */
  emptyAction?: ReactNode;
  caption: string;
  sentIds?: ReadonlySet<string>;
}) {
  if (transfers.length === 0)
    return (
      <>
        <p className="muted">{empty}</p>
        {emptyAction}
      </>
    );
  const isSent = (t: Transfer) => (direction === 'both' ? Boolean(sentIds?.has(t.id)) : direction === 'sent');
  return (
    <ActivityList
      items={transfers}
      itemKey={(t) => t.id}
      isoOf={(t) => t.created_at}
      label={caption}
      className="transfer-list"
      testId={`${direction}-list`}
    >
      {(transfer) => {
        const sent = isSent(transfer);
        const party = transferParty(transfer, sent ? 'sent' : 'received');
        return (
          <>
            <span className="transfer-row-main">
              <span data-testid="party">{party.name}</span>
              <span className="muted transfer-wrap">{party.email}</span>
              {transfer.description ? (
                <span className="transfer-wrap" data-testid="description">
                  {transfer.description}
                </span>
              ) : null}
              <span className="muted" data-testid="date">
                {formatDateTime(transfer.created_at)}
              </span>
            </span>
            <span className="transfer-row-figures">
              <SignedAmount transfer={transfer} sent={sent} />
              <StatusBadge status={transfer.status} />
            </span>
          </>
        );
      }}
    </ActivityList>
  );
}
