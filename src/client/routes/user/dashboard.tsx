import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { EmailVerificationCard } from '../../features/account/components/email-verification-card.tsx';
import { memberSessionQuery } from '../../features/auth/session.ts';
import {
  IncomeCard,
  LatestNotificationsCard,
  QuickLinks,
  TeamCard,
} from '../../features/dashboard/components/daily-cards.tsx';
import { FirstSteps, type FirstStepsDone } from '../../features/dashboard/components/first-steps.tsx';
import { incomeSummaryQuery } from '../../features/income/api.ts';
import { DashboardBanner } from '../../features/notifications/components/dashboard-banner.tsx';
import { teamSummaryQuery } from '../../features/team/api.ts';
import { ReferralCard } from '../../features/users/components/referral-card.tsx';
import { walletBalanceQuery } from '../../features/wallets/api.ts';
import { WalletCards } from '../../features/wallets/components/wallet-cards.tsx';
import { formatDateTime } from '../../lib/format.ts';

// Its own small chunk: the dashboard's cold load has a JavaScript budget (tests/e2e/member-budget.spec.ts).
const LatestNewsCard = lazy(() => import('../../features/news/components/latest-news-card.tsx'));

export const Route = createFileRoute('/user/dashboard')({ component: MemberDashboard });

/**
 * Which first steps are done, from the answers the dashboard's cards ask for anyway (the same queries,
 * so no request of its own); null until all are in, or when one failed (its card says so).
 */
function useFirstStepsDone(
  member: { id: string; verify_at: string | null } | undefined,
): FirstStepsDone | null {
  const balance = useQuery(walletBalanceQuery).data;
  const income = useQuery(incomeSummaryQuery).data;
  const team = useQuery({ ...teamSummaryQuery(member?.id ?? ''), enabled: Boolean(member) }).data;
  if (!member || !balance || !income || !team) return null;
  return {
    verify: member.verify_at !== null,
    money: balance.money_added,
    plan: income.investments.length > 0,
    invite: team.children_count > 0,
  };
}

function MemberDashboard() {
  const member = useQuery(memberSessionQuery).data?.auth;
  const queryClient = useQueryClient();
  const firstSteps = useFirstStepsDone(member);
  if (!member) return null;
  return (
    <div className="stack">
      <h1>Welcome, {member.fullname}</h1>
      <FirstSteps memberId={member.id} done={firstSteps} />
      <DashboardBanner />
      <WalletCards />
      <QuickLinks />
      <IncomeCard />
      <TeamCard memberId={member.id} />
      <LatestNotificationsCard memberId={member.id} />
      <Suspense fallback={null}>
        <LatestNewsCard />
      </Suspense>
      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Your account</h2>
        <dl className="facts">
          <div>
            <dt>Username</dt>
            <dd>{member.username}</dd>
          </div>
          <div>
            <dt>Account status</dt>
            <dd>
              {/* A blocked member is signed out at once, so a member never reads "Blocked" or "Unblocked" here. */}
              <span
                className={`badge ${member.is_active === 'active' ? 'green' : 'grey'}`}
                data-testid="activation-status"
              >
                {member.is_active === 'active' ? 'Activated' : 'Not activated yet'}
              </span>
            </dd>
          </div>
          <div>
            <dt>Member since</dt>
            <dd>{formatDateTime(member.created_at)}</dd>
          </div>
          <div>
            <dt>Last sign-in</dt>
            <dd>{formatDateTime(member.last_login)}</dd>
          </div>
        </dl>
        {member.is_active === 'inactive' ? (
          <p className="muted">Your first investment in a plan activates your account.</p>
        ) : null}
        <Link to="/user/subscription" className="button">
          Plans and activation codes
        </Link>
        <Link to="/user/income-disclosure" className="button">
          Income disclosure: what members earn
        </Link>
        <Link to="/user/profile/$id" params={{ id: member.id }} className="button">
          Profile and payout addresses
        </Link>
        <Link
          to="/user/transaction/$table_name"
          params={{ table_name: 'all_transaction' }}
          className="button"
        >
          Your transactions
        </Link>
      </section>
      <EmailVerificationCard
        email={member.email}
        verifiedAt={member.verify_at}
        onVerified={() => queryClient.invalidateQueries({ queryKey: memberSessionQuery.queryKey })}
      />
      <ReferralCard code={member.refferal_code} />
    </div>
  );
}
