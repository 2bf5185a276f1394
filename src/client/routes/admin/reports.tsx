import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { periodFromAddress } from '../../features/reports/api.ts';
import { ReportsView } from '../../features/reports/components/reports-view.tsx';
import { AuditLog } from '../../features/users/components/audit-log.tsx';

const optionalText = v.fallback(v.optional(v.pipe(v.string(), v.maxLength(254))), undefined);

export const Route = createFileRoute('/admin/reports')({
  validateSearch: v.object({
    // Only text here: a route's search check is in the main bundle every member downloads. The page
    // checks the period with the server's schema (periodFromAddress) and falls back to the last 30 days.
    from: optionalText,
    to: optionalText,
    group: optionalText,
    member: optionalText,
    admin: optionalText,
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: ReportsPage,
});

function ReportsPage() {
  const { from, to, group, ...audit } = Route.useSearch();
  const navigate = Route.useNavigate();
  const period = periodFromAddress({ from, to, group });
  return (
    <div className="stack">
      <h1>Reports</h1>
      <ReportsView
        params={period}
        onChange={(next) => navigate({ search: (prev) => ({ ...prev, ...next }) })}
      />
      <AuditLog params={audit} onChange={(next) => navigate({ search: { ...period, ...next } })} />
    </div>
  );
}
