import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { RiskNote } from '../../../ui/risk-note.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { incomeSummaryQuery } from '../../income/api.ts';
import { myNotificationsQuery } from '../../notifications/api.ts';
import { memberRewardsQuery } from '../../rewards/api.ts';
import { teamSummaryQuery } from '../../team/api.ts';

// The member dashboard's daily cards (issue 17 item 5). Each card asks for its own data and shows it as
// soon as it arrives, so a slow part (the team's business over a large downline) never holds back the
// wallets or the income. They reuse the queries of the screens they link to: opening one of those
// screens next shows the same figures at once.

/** How many of the newest notifications the dashboard lists; the rest are one tap away. */
const LATEST_NOTIFICATIONS = 3;

function Card({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function IncomeCard() {
  const { data, isPending, error, refetch } = useQuery(incomeSummaryQuery);
  const active = data?.investments.filter((investment) => investment.status === 'active') ?? [];
  // Cents from the API's strings, never through a float.
  const invested = active.reduce((sum, investment) => sum + (parseCents(investment.amount) ?? 0), 0);
  return (
    <Card id="daily-income-title" title="Income">
      {isPending ? (
        <Spinner label="Loading your income" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} className="error-view" />
      ) : (
        <>
          <dl className="stat-grid">
            <div className="stat">
              <dt>Today</dt>
              <dd data-testid="income-today">{formatUsd(data.today.total)}</dd>
            </div>
            <div className="stat">
              <dt>This month</dt>
              <dd data-testid="income-month">{formatUsd(data.month.total)}</dd>
            </div>
            <div className="stat">
              <dt>Active investments</dt>
              <dd data-testid="active-investments">
                {active.length} · {formatUsd(invested)}
              </dd>
            </div>
          </dl>
          {/* Beside the figures, not only at the foot of the page: past income promises nothing. */}
          <RiskNote className="compact" />
          <Link to="/user/income" className="button">
            Income and investments
          </Link>
        </>
      )}
    </Card>
  );
}

export function TeamCard({ memberId }: { memberId: string }) {
  const team = useQuery(teamSummaryQuery(memberId));
  const rewards = useQuery(memberRewardsQuery(memberId));
  const reached = rewards.data?.rewards.filter((reward) => reward.reached).at(-1);
  const next = rewards.data?.next;
  const nextReward = next ? rewards.data?.rewards.find((reward) => reward.id === next.id) : undefined;
  return (
    <Card id="daily-team-title" title="Team and rank">
      {team.isPending ? (
        <Spinner label="Loading your team" />
      ) : team.error ? (
        <QueryError error={team.error} onRetry={() => team.refetch()} className="error-view" />
      ) : (
        <dl className="stat-grid">
          <div className="stat">
            <dt>Team size</dt>
            <dd data-testid="team-size">{team.data.team_size}</dd>
          </div>
          <div className="stat">
            <dt>Team business</dt>
            <dd data-testid="team-business">{formatUsd(team.data.team_business)}</dd>
          </div>
          <div className="stat">
            <dt>Direct members</dt>
            <dd data-testid="direct-count">{team.data.children_count}</dd>
          </div>
        </dl>
      )}
      {rewards.isPending ? (
        <Spinner label="Loading your rank" />
      ) : rewards.error ? (
        <QueryError error={rewards.error} onRetry={() => rewards.refetch()} className="error-view" />
      ) : (
        <p data-testid="rank-line">
          Rank: <strong>{reached?.rank ?? 'none yet'}</strong>
          {/* The next rank is its requirement, never its prize: the reward is on the rewards screen's ladder. */}
          {next && nextReward
            ? ` · ${next.rank} needs ${formatUsd(nextReward.business_needed)} team business (${formatUsd(next.business_left)} more than now)`
            : null}
        </p>
      )}
      <Link to="/user/rewards" className="button">
        Rewards
      </Link>
    </Card>
  );
}

export function LatestNotificationsCard({ memberId }: { memberId: string }) {
  const { data, isPending, error, refetch } = useQuery(myNotificationsQuery(memberId));
  const latest = data?.slice(0, LATEST_NOTIFICATIONS) ?? [];
  return (
    <Card id="daily-notifications-title" title="Latest notifications">
      {isPending ? (
        <Spinner label="Loading notifications" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} className="error-view" />
      ) : latest.length === 0 ? (
        <p className="muted">No notifications yet.</p>
      ) : (
        <ul className="plain-list" data-testid="latest-notifications">
          {latest.map((item) => (
            <li key={item.id}>
              <strong>{item.title}</strong> <span className="muted">{formatDateTime(item.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      <Link to="/user/notifications" className="button">
        All notifications
      </Link>
    </Card>
  );
}

/** What a member does most, one tap from the dashboard. */
export function QuickLinks() {
  return (
    <nav className="card row" aria-label="Quick links">
      <Link to="/user/transfer-form" className="button">
        Send money
      </Link>
      <Link to="/user/add-money" className="button">
        Add money
      </Link>
      <Link to="/user/withdrawal" className="button">
        Withdraw
      </Link>
      <Link to="/user/topup" className="button">
        Invest
      </Link>
      <a href="#referral-title" className="button">
        Invite
      </a>
    </nav>
  );
}
