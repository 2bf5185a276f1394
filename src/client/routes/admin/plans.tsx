import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { AdminPlans } from '../../features/plans/components/admin-plans.tsx';
import { PLAN_TABS } from '../../features/plans/plan-tabs.ts';

export const Route = createFileRoute('/admin/plans')({
  // The tab and the codes' page are in the address: a reload or a shared link shows the same part.
  validateSearch: v.object({
    tab: v.optional(v.fallback(v.picklist(PLAN_TABS), 'plans'), 'plans'),
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: AdminPlansPage,
});

function AdminPlansPage() {
  const { tab, page } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Plans</h1>
      <AdminPlans
        tab={tab}
        page={page}
        onNavigate={(next) => navigate({ search: { tab: next.tab, page: next.page ?? 1 } })}
      />
    </div>
  );
}
