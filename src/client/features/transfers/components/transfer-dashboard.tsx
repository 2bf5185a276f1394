import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TRANSFER_MESSAGES } from '../../../../shared/transfers.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { Tabs } from '../../../ui/tabs.tsx';
import { transferHistoryQuery } from '../api.ts';
import { TransferForm } from './transfer-form.tsx';
import { OverviewCards, RecentActivity } from './transfer-overview.tsx';
import { TransferTable } from './transfer-table.tsx';

export const DASHBOARD_TABS = ['overview', 'sent', 'received', 'transfer'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** Spec 8: a non-OK answer reads "HTTP error! status: {code}". */
export const loadErrorText = (error: unknown) =>
  error instanceof ApiError ? `HTTP error! status: ${error.status}` : errorText(error);

/** Spec 2 "Transfer dashboard": overview, sent, received and the transfer form, for the signed-in member. */
export function TransferDashboard({
  memberId,
  tab,
  onTab,
  historyLink,
}: {
  memberId: string;
  tab: DashboardTab;
  onTab: (tab: DashboardTab) => void;
  historyLink: ReactNode;
}) {
  const { data, isPending, error } = useQuery(transferHistoryQuery(memberId));
  if (isPending)
    return (
      <p className="muted" role="status">
        {TRANSFER_MESSAGES.loading}
      </p>
    );
  if (error)
    return (
      <div className="card error-view" role="alert">
        <h2>{TRANSFER_MESSAGES.errorTitle}</h2>
        <p>{loadErrorText(error)}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {TRANSFER_MESSAGES.tryAgain}
        </button>
      </div>
    );
  const { outgoing, incoming } = data.transfers;
  return (
    <Tabs
      label="Transfers"
      active={tab}
      onChange={onTab}
      tabs={[
        { key: 'overview', label: 'Overview' },
        { key: 'sent', label: `Sent (${outgoing.length})` },
        { key: 'received', label: `Received (${incoming.length})` },
        { key: 'transfer', label: 'Transfer fund' },
      ]}
    >
      {tab === 'overview' ? (
        <div className="stack">
          <OverviewCards stats={data.stats} />
          <RecentActivity history={data} />
          {historyLink}
        </div>
      ) : null}
      {tab === 'sent' ? (
        <TransferTable
          transfers={outgoing}
          direction="sent"
          empty={TRANSFER_MESSAGES.noOutgoing}
          caption="Transfers you sent"
        />
      ) : null}
      {tab === 'received' ? (
        <TransferTable
          transfers={incoming}
          direction="received"
          empty={TRANSFER_MESSAGES.noIncoming}
          caption="Transfers you received"
        />
      ) : null}
      {tab === 'transfer' ? <TransferForm selfId={memberId} /> : null}
    </Tabs>
  );
}
