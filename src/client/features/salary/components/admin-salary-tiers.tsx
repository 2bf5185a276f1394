import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatUsd } from '../../../../shared/money.ts';
import { type SalaryTierStat, salaryTierSchema } from '../../../../shared/salary.ts';
import { CrudTable } from '../../../ui/crud-table.tsx';
import type { DataColumn } from '../../../ui/data-table.tsx';
import {
  createSalaryTier,
  deleteSalaryTier,
  refreshSalary,
  type SalaryTierFields,
  salaryTierStatsQuery,
  updateSalaryTier,
} from '../api.ts';

const EMPTY: SalaryTierFields = { name: '', min_business: '', min_active_directs: '', amount: '' };

const COLUMNS: DataColumn<SalaryTierStat>[] = [
  {
    id: 'name',
    header: 'Tier',
    cell: (t) => t.name,
    sortValue: (t) => t.name.toLowerCase(),
    csv: (t) => t.name,
  },
  {
    id: 'business',
    header: 'New team business in the month',
    className: 'num',
    cell: (t) => formatUsd(t.min_business),
    sortValue: (t) => Number(t.min_business),
    csv: (t) => t.min_business,
  },
  {
    id: 'directs',
    header: 'Active directs',
    className: 'num',
    cell: (t) => t.min_active_directs,
    sortValue: (t) => t.min_active_directs,
    csv: (t) => t.min_active_directs,
  },
  {
    id: 'amount',
    header: 'Salary',
    className: 'num',
    cell: (t) => formatUsd(t.amount),
    sortValue: (t) => Number(t.amount),
    csv: (t) => t.amount,
  },
  {
    id: 'paid',
    header: 'Paid',
    className: 'num',
    cell: (t) => `${t.members_paid} · ${formatUsd(t.total_paid)}`,
    sortValue: (t) => Number(t.total_paid),
    csv: (t) => t.total_paid,
  },
];

/** The salary tiers with what each has paid, a form that adds or edits one, and delete. */
export function AdminSalaryTiers() {
  const queryClient = useQueryClient();
  const query = useQuery(salaryTierStatsQuery);
  return (
    <CrudTable
      rows={query.data?.tiers}
      status={query}
      columns={COLUMNS}
      table={{
        caption: 'Salary tiers',
        empty: 'No salary tiers yet.',
        noun: ['tier', 'tiers'],
        testId: 'salary-tiers',
        csvName: 'salary-tiers',
        initialSort: { id: 'business', desc: false },
      }}
      fields={[
        { name: 'name', label: 'Tier name', maxLength: 60 },
        { name: 'min_business', label: 'New team business in the month (USD)', inputMode: 'decimal' },
        { name: 'min_active_directs', label: 'Active direct members', inputMode: 'numeric' },
        { name: 'amount', label: 'Monthly salary (USD)', inputMode: 'decimal' },
      ]}
      empty={EMPTY}
      toFields={(t) => ({
        name: t.name,
        min_business: t.min_business,
        min_active_directs: String(t.min_active_directs),
        amount: t.amount,
      })}
      title={(t) => t.name}
      newTitle="New salary tier"
      createLabel="Create salary tier"
      headingLevel={3}
      schema={salaryTierSchema}
      toInput={(fields) => {
        const directs = String(fields.min_active_directs).trim();
        return {
          name: fields.name.trim(),
          min_business: fields.min_business.trim(),
          // An empty box is no answer (not 0); text that is not a number fails the schema's number check.
          min_active_directs: directs === '' ? undefined : Number(directs),
          amount: fields.amount.trim(),
        };
      }}
      send={(typed, editing) => {
        // Checked by the schema: the number of directs is there.
        const body = { ...typed, min_active_directs: Number(typed.min_active_directs) };
        return editing ? updateSalaryTier(editing.id, body) : createSalaryTier(body);
      }}
      remove={(t) => deleteSalaryTier(t.id)}
      refresh={() => refreshSalary(queryClient)}
      deleteNote="A tier someone has been paid at stays, for their history."
    />
  );
}
