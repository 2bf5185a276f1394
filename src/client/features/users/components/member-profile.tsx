import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { formatUsd } from '../../../../shared/money.ts';
import '../users.css';
import { type ReactNode, useState } from 'react';
import { pairLabel } from '../../../../shared/trade.ts';
import type { MemberWithBalance } from '../../../../shared/users.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { carryBanner, useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { memberDetailQuery, refreshMembers } from '../api.ts';
import { DeleteMemberDialog } from './delete-member-dialog.tsx';
import { MemberLedger, MemberSessions } from './member-activity.tsx';
import { ActiveBadge, StatusBadge } from './member-badges.tsx';
import { MemberEditForm } from './member-edit-form.tsx';
import { MemberRecords, type MemberRecordTab } from './member-records.tsx';

/**
 * /admin/check/profile/{id}: one member for support staff (spec 2 "Admin user detail"). `adjustment`
 * is the balance adjustment form for this member, given by the route (it belongs to the wallets feature).
 */
export function MemberProfile({
  id,
  adjustment,
  tab,
  onTab,
}: {
  id: string;
  adjustment?: (member: MemberWithBalance) => ReactNode;
  /** The records tab shown (investments, withdrawals, deposits, team, tickets), kept in the address. */
  tab: MemberRecordTab;
  onTab: (tab: MemberRecordTab) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const [erased, setErased] = useState(false);
  const { data, isPending, error, refetch } = useQuery({ ...memberDetailQuery(id), enabled: !erased });
  const { banner, success, error: showError } = useAutoClearBanner();

  const refresh = () => refreshMembers(queryClient);

  if (erased) return <Spinner label="Back to the members" />;
  if (isPending) return <Spinner label="Loading the member" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;

  const user = data.singleuser;
  const facts: [string, string][] = [
    ['Member ID', user.id],
    ['Username', user.username],
    ['Email', user.email],
    ['Phone', user.phone],
    ['Referral code', user.refferal_code],
    [
      'Sponsor',
      data.sponsor ? `${data.sponsor.fullname} (${data.sponsor.username}, ${data.sponsor.email})` : '—',
    ],
    ['Direct team', String(data.direct_team)],
    ['Joined', formatDateTime(user.created_at)],
    ['Last sign-in', formatDateTime(user.last_login)],
    ['Last changed', formatDateTime(user.updated_at)],
    ['Activated', formatDateTime(user.activation_date)],
    ['Paid member', user.paid_member ? 'Yes' : 'No'],
    ['Trading pair', pairLabel(user.self_trade_pair) ?? '—'],
  ];

  return (
    <div className="stack member-profile">
      <div className="page-head">
        <h1>{user.fullname}</h1>
        <div className="row">
          <StatusBadge status={user.status} />
          <ActiveBadge isActive={user.is_active} />
          <Link to="/admin/reports" search={{ member: user.id }} className="button small">
            Audit log
          </Link>
          <button type="button" className="button small danger" onClick={() => setDeleting(true)}>
            Delete member
          </button>
        </div>
      </div>
      <MessageBanner banner={banner} />
      <div className="profile-grid">
        <section className="card" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <dl className="facts" data-testid="member-facts">
            {facts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card" aria-labelledby="balances-title">
          <h2 id="balances-title">Balances</h2>
          <dl className="stat-grid">
            <div className="stat" data-testid="balance-business">
              <dt>Active Wallet</dt>
              <dd>{formatUsd(user.balance.business)}</dd>
            </div>
            <div className="stat" data-testid="balance-working">
              <dt>Income Working</dt>
              <dd>{formatUsd(user.balance.working)}</dd>
            </div>
          </dl>
          <p className="muted">
            Available now (held money excluded). Wallets change only through the ledger: a balance adjustment
            below, with a reason.
          </p>
        </section>
      </div>
      <MemberRecords memberId={user.id} tab={tab} onTab={onTab} />
      {adjustment?.(user)}
      <MemberEditForm
        key={user.updated_at}
        member={user}
        onSaved={(message) => {
          success(message);
          void refresh();
        }}
        onFailed={showError}
      />
      <MemberSessions
        memberId={user.id}
        sessions={data.sessions}
        onEnded={(message) => {
          success(message);
          void refresh();
        }}
        onFailed={showError}
      />
      <MemberLedger transfers={data.transfers} />
      <DeleteMemberDialog
        member={deleting ? { id: user.id, fullname: user.fullname, email: user.email } : null}
        onClose={() => setDeleting(false)}
        onError={(text) => {
          setDeleting(false);
          showError(text);
        }}
        onDone={(result) => {
          setDeleting(false);
          if (result.outcome === 'erased') {
            // The profile is gone: back to the list, where the banner is read and clears after 3 s.
            setErased(true);
            queryClient.removeQueries({ queryKey: memberDetailQuery(id).queryKey });
            carryBanner({ tone: 'success', text: result.message });
            void navigate({ to: '/admin/users' });
          } else success(result.message);
          void refresh();
        }}
      />
    </div>
  );
}
