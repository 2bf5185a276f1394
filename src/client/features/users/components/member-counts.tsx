import { useQuery } from '@tanstack/react-query';
import { errorText } from '../../../lib/http.ts';
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
  if (error)
    return (
      <div className="card error-view" role="alert">
        <p>{errorText(error)}</p>
        <button type="button" className="button" onClick={() => refetch()}>
          Try again
        </button>
      </div>
    );
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
