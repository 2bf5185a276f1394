import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type DashboardTab, TRANSFER_MESSAGES } from '../../../../shared/transfers.ts';
import { Tabs } from '../../../ui/tabs.tsx';
import { transferHistoryQuery } from '../api.ts';
import { LoadError } from './load-error.tsx';
import type { Standing } from './sender-notice.tsx';
import { TransferForm } from './transfer-form.tsx';
import { TransferList } from './transfer-list.tsx';
import { OverviewCards, RecentActivity } from './transfer-overview.tsx';

/** Spec 2 "Transfer dashboard": overview, sent, received and the transfer form, for the signed-in member. */
export function TransferDashboard({
  member,
  tab,
  onTab,
  historyLink,
}: {
  member: { id: string } & Standing;
  tab: DashboardTab;
  onTab: (tab: DashboardTab) => void;
  historyLink: ReactNode;
}) {
  const { data, isPending, error } = useQuery(transferHistoryQuery(member.id));
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
        <LoadError error={error} />
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {TRANSFER_MESSAGES.tryAgain}
        </button>
      </div>
    );
  const { outgoing, incoming } = data.transfers;
  // Nothing sent yet: the next step is the form, one tab away.
  const sendMoney = (
    <button type="button" className="button primary" onClick={() => onTab('transfer')}>
      Send money
    </button>
  );
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
          <RecentActivity history={data} emptyAction={sendMoney} />
          {historyLink}
        </div>
      ) : null}
      {tab === 'sent' ? (
        <TransferList
          transfers={outgoing}
          direction="sent"
          empty={TRANSFER_MESSAGES.noOutgoing}
          emptyAction={sendMoney}
          caption="Transfers you sent"
        />
      ) : null}
      {tab === 'received' ? (
        <TransferList
          transfers={incoming}
          direction="received"
          empty={TRANSFER_MESSAGES.noIncoming}
          caption="Transfers you received"
        />
      ) : null}
      {tab === 'transfer' ? <TransferForm member={member} /> : null}
    </Tabs>
  );
}
