import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { AuditLog } from '../../features/users/components/audit-log.tsx';

const optionalText = v.fallback(v.optional(v.pipe(v.string(), v.maxLength(254))), undefined);

export const Route = createFileRoute('/admin/reports')({
  validateSearch: v.object({
    member: optionalText,
    admin: optionalText,
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: ReportsPage,
});

function ReportsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Reports</h1>
      <AuditLog params={search} onChange={(next) => navigate({ search: next })} />
    </div>
  );
}
