import type { ReactNode } from 'react';
import { RECENT_ACTIVITY_COUNT } from '../../../../shared/constants.ts';
import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import type { Transfer, TransferHistory, TransferStats } from '../../../../shared/transfers.ts';
import { TRANSFER_MESSAGES } from '../../../../shared/transfers.ts';
import { WALLET_LABELS } from '../../../../shared/wallets.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { SignedAmount, StatusBadge } from './transfer-list.tsx';

/** RULES.md: a real change against the previous 30 days, or a dash; never an invented figure. */
function Trend({ percent }: { percent: number | null }) {
  const text = percent === null ? '—' : formatPercent(percent, 'always');
  return (
    <span className="trend">
      {text} <span className="visually-hidden">change </span>vs previous 30 days
    </span>
  );
}

/** The four overview cards of spec 2. */
export function OverviewCards({ stats }: { stats: TransferStats }) {
  return (
    <dl className="stat-grid" aria-label="Transfer overview">
      <div className="stat">
        <dt>Total Sent</dt>
        <dd data-testid="total-sent">
          {formatUsd(stats.total_sent_amount)}
          <Trend percent={stats.trends.sent} />
        </dd>
      </div>
      <div className="stat">
        <dt>Total Received</dt>
        <dd data-testid="total-received">
          {formatUsd(stats.total_received_amount)}
          <Trend percent={stats.trends.received} />
        </dd>
      </div>
      <div className="stat">
        <dt>Pending Transfers</dt>
        <dd data-testid="pending-transfers">{stats.pending_outgoing + stats.pending_incoming}</dd>
      </div>
      <div className="stat">
        <dt>Total Transfers</dt>
        <dd data-testid="total-transfers">
          {stats.total_outgoing + stats.total_incoming}
          <Trend percent={stats.trends.transfers} />
        </dd>
      </div>
    </dl>
  );
}

/** The 5 newest transfers of both directions (spec 9). */
export function RecentActivity({
  history,
  emptyAction,
}: {
  history: TransferHistory;
  emptyAction?: ReactNode;
}) {
  const outgoing = new Set(history.transfers.outgoing.map((t) => t.id));
  const incoming = new Set(history.transfers.incoming.map((t) => t.id));
  const recent = [...history.transfers.all]
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .slice(0, RECENT_ACTIVITY_COUNT);
  const counterparty = (t: Transfer) =>
    outgoing.has(t.id) && incoming.has(t.id)
      ? `${WALLET_LABELS[t.from]} to ${WALLET_LABELS[t.to]}`
      : outgoing.has(t.id)
        ? `To ${t.recipient_name}`
        : `From ${t.sender_name}`;
  return (
    <section className="card" aria-labelledby="recent-activity-title">
      <h2 id="recent-activity-title">Recent Activity</h2>
      {recent.length === 0 ? (
        <>
          <p className="muted">{TRANSFER_MESSAGES.noActivity}</p>
          {emptyAction}
        </>
      ) : (
        <ul className="activity" data-testid="recent-activity">
          {recent.map((t) => (
            <li key={t.id}>
              <span>
                {counterparty(t)}
                <br />
                <span className="muted">{formatDateTime(t.created_at)}</span>
              </span>
              <span>
                {outgoing.has(t.id) && incoming.has(t.id) ? (
                  formatUsd(t.amount)
                ) : (
                  <SignedAmount transfer={t} sent={outgoing.has(t.id)} />
                )}
                <br />
                <StatusBadge status={t.status} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
