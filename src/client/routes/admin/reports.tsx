import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { REPORT_GROUPS } from '../../../shared/report-groups.ts';
import { defaultPeriod } from '../../features/reports/api.ts';
import { ReportsView } from '../../features/reports/components/reports-view.tsx';
import { AuditLog } from '../../features/users/components/audit-log.tsx';

const optionalText = v.fallback(v.optional(v.pipe(v.string(), v.maxLength(254))), undefined);
// A date or grouping that is not one in the address falls back to the default period (the picker
// checks the whole period with the server's schema before it writes the address). valibot's isoDate,
// not the shared calendar check: this runs in the main bundle every member downloads, and a date it
// lets through that is no day (2026-02-30) is refused by the server like any bad period.
const optionalDate = v.fallback(v.optional(v.pipe(v.string(), v.isoDate())), undefined);

export const Route = createFileRoute('/admin/reports')({
  validateSearch: v.object({
    from: optionalDate,
    to: optionalDate,
    group: v.fallback(v.optional(v.picklist(REPORT_GROUPS)), undefined),
    member: optionalText,
    admin: optionalText,
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: ReportsPage,
});

function ReportsPage() {
  const { from, to, group, ...audit } = Route.useSearch();
  const navigate = Route.useNavigate();
  const fallback = defaultPeriod();
  const period = { from: from ?? fallback.from, to: to ?? fallback.to, group: group ?? fallback.group };
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
