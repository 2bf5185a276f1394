import { useQuery } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import { type HistoryTab, TRANSFER_MESSAGES, type TransferHistory } from '../../../../shared/transfers.ts';
import { Tabs } from '../../../ui/tabs.tsx';
import { transferHistoryQuery } from '../api.ts';
import { LoadError } from './load-error.tsx';
import { TransferList } from './transfer-list.tsx';

// Spec 8: after a failed load the lists are empty and the statistics zero.
const EMPTY: TransferHistory = {
  transfers: { outgoing: [], incoming: [], all: [] },
  stats: {
    total_outgoing: 0,
    total_incoming: 0,
    total_sent_amount: '0.00',
    total_received_amount: '0.00',
    pending_outgoing: 0,
    pending_incoming: 0,
    completed_outgoing: 0,
    completed_incoming: 0,
    trends: { sent: null, received: null, transfers: null },
  },
};

/** The separate history view of spec 2: overview (statistics), outgoing, incoming and all. */
export function TransferHistoryView({
  memberId,
  tab,
  onTab,
}: {
  memberId: string | undefined;
  tab: HistoryTab;
  onTab: (tab: HistoryTab) => void;
}) {
  const query = useQuery({ ...transferHistoryQuery(memberId ?? ''), enabled: Boolean(memberId) });
  if (!memberId) return <p role="alert">{TRANSFER_MESSAGES.userIdRequired}</p>;
  if (query.isPending)
    return (
      <p className="muted" role="status">
        {TRANSFER_MESSAGES.loading}
      </p>
    );
  // A failed refetch keeps the last answer in the cache; spec 8 shows none of it beside the error.
  const data = query.error ? EMPTY : (query.data ?? EMPTY);
  const { stats, transfers } = data;
  const figures: [string, string | number][] = [
    ['Sent', stats.total_outgoing],
    ['Received', stats.total_incoming],
    ['Amount sent', formatUsd(stats.total_sent_amount)],
    ['Amount received', formatUsd(stats.total_received_amount)],
    ['Pending sent', stats.pending_outgoing],
    ['Pending received', stats.pending_incoming],
    ['Completed sent', stats.completed_outgoing],
    ['Completed received', stats.completed_incoming],
  ];
  const own = new Set(transfers.outgoing.map((t) => t.id));
  return (
    <div className="stack">
      {query.error ? (
        <div className="card error-view" role="alert">
          <LoadError error={query.error} />
        </div>
      ) : null}
      <Tabs
        label="Transfer history"
        active={tab}
        onChange={onTab}
        tabs={[
          { key: 'overview', label: 'Overview' },
          { key: 'outgoing', label: `Outgoing (${transfers.outgoing.length})` },
          { key: 'incoming', label: `Incoming (${transfers.incoming.length})` },
          { key: 'all', label: `All (${transfers.all.length})` },
        ]}
      >
        {tab === 'overview' ? (
          <dl className="stat-grid" aria-label="Transfer statistics" data-testid="history-stats">
            {figures.map(([label, value]) => (
              <div className="stat" key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {tab === 'outgoing' ? (
          <TransferList
            transfers={transfers.outgoing}
            direction="sent"
            empty={TRANSFER_MESSAGES.noOutgoing}
            caption="Outgoing transfers"
          />
        ) : null}
        {tab === 'incoming' ? (
          <TransferList
            transfers={transfers.incoming}
            direction="received"
            empty={TRANSFER_MESSAGES.noIncoming}
            caption="Incoming transfers"
          />
        ) : null}
        {tab === 'all' ? (
          <TransferList
            transfers={transfers.all}
            direction="both"
            sentIds={own}
            empty={TRANSFER_MESSAGES.noActivity}
            caption="All transfers"
          />
        ) : null}
      </Tabs>
    </div>
  );
}
