import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import {
  IncomeAgainstDeposits,
  IncomeRuns,
  RunDateForm,
} from '../../features/income/components/admin-income.tsx';

export const Route = createFileRoute('/admin/income')({
  // The runs' page is in the address: a reload or a shared link shows the same page.
  validateSearch: v.object({
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: AdminIncomePage,
});

function AdminIncomePage() {
  const { page } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Income</h1>
      <RunDateForm />
      <IncomeRuns page={page} onPage={(next) => navigate({ search: { page: next } })} />
      <IncomeAgainstDeposits />
    </div>
  );
}
