import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import * as v from 'valibot';
import { DASHBOARD_TABS } from '../../../shared/enums.ts';
import { TRANSFER_MESSAGES } from '../../../shared/transfers.ts';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { ReceiveQrButton } from '../../features/qr/components/receive-qr.tsx';
import { TransferDashboard } from '../../features/transfers/components/transfer-dashboard.tsx';

export const Route = createFileRoute('/user/transfer')({
  // The tab is in the address so a reload (spec: closing the transfer modals reloads) keeps it.
  validateSearch: v.object({
    tab: v.optional(v.fallback(v.picklist(DASHBOARD_TABS), 'overview'), 'overview'),
  }),
  component: TransferPage,
});

function TransferPage() {
  const member = useQuery(memberSessionQuery).data?.auth;
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <header>
        <h1>{TRANSFER_MESSAGES.title}</h1>
        <p className="muted">{TRANSFER_MESSAGES.subtitle}</p>
        {member ? (
          <div className="row">
            <Link to="/user/transfer-form" className="button primary">
              {TRANSFER_MESSAGES.sendMoney}
            </Link>
            <ReceiveQrButton email={member.email} />
          </div>
        ) : null}
      </header>
      {member ? (
        <TransferDashboard
          member={member}
          tab={tab}
          onTab={(next) => navigate({ search: { tab: next }, replace: true, resetScroll: false })}
          historyLink={<Link to="/user/transfer-history">Full transfer history</Link>}
        />
      ) : null}
    </div>
  );
}
