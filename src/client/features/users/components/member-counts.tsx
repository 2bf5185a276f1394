import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { memberCountsQuery } from '../api.ts';

const CARDS = [
  ['total', 'Members'],
  ['active', 'Active'],
  ['inactive', 'Inactive'],
  ['blocked', 'Blocked'],
  ['joinedToday', 'Joined today (UTC)'],
] as const;

export function MemberCounts() {
  const { data, isPending, error, refetch } = useQuery(memberCountsQuery);
  if (isPending) return <Spinner label="Loading member counts" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} />;
  return (
    <section aria-labelledby="counts-title">
      <h2 id="counts-title">Members</h2>
      <dl className="stat-grid">
        {CARDS.map(([key, label]) => (
          <div className="stat" key={key} data-testid={`count-${key}`}>
            <dt>{label}</dt>
            <dd>{data[key]}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
