import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type SalaryTierStat, salaryTierSchema } from '../../../../shared/salary.ts';
import { formatMoney } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DeleteDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import {
  createSalaryTier,
  deleteSalaryTier,
  refreshSalary,
  type SalaryTierFields,
  salaryTierStatsQuery,
  updateSalaryTier,
} from '../api.ts';

const EMPTY: SalaryTierFields = { name: '', min_business: '', min_active_directs: '', amount: '' };

/** The salary tiers with what each has paid, a form that adds or edits one, and delete. */
export function AdminSalaryTiers() {
  const queryClient = useQueryClient();
  const query = useQuery(salaryTierStatsQuery);
  const [fields, setFields] = useState<SalaryTierFields>(EMPTY);
  const [editing, setEditing] = useState<SalaryTierStat | null>(null);
  const [deleting, setDeleting] = useState<SalaryTierStat | null>(null);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { errors, setErrors, busy, submit } = useSchemaForm();

  const set = (name: keyof SalaryTierFields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  function save(event: FormEvent) {
    event.preventDefault();
    setNote(null);
    const directs = String(fields.min_active_directs).trim();
    const typed = {
      name: fields.name.trim(),
      min_business: fields.min_business.trim(),
      // An empty box is no answer (not 0); text that is not a number fails the schema's number check.
      min_active_directs: directs === '' ? undefined : Number(directs),
      amount: fields.amount.trim(),
    };
    void submit(
      salaryTierSchema,
      typed,
      async () => {
        const body = { ...typed, min_active_directs: Number(directs) };
        const { message } = editing ? await updateSalaryTier(editing.id, body) : await createSalaryTier(body);
        await refreshSalary(queryClient);
        setNote({ tone: 'success', text: message });
        setFields(EMPTY);
        setEditing(null);
      },
      (text) => setNote({ tone: 'error', text }),
    );
  }

  async function remove(tier: SalaryTierStat) {
    setDeleting(null);
    try {
      const { message } = await deleteSalaryTier(tier.id);
      setNote({ tone: 'success', text: message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    }
    await refreshSalary(queryClient);
  }

  const columns: DataColumn<SalaryTierStat>[] = [
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
      cell: (t) => formatMoney(t.min_business),
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
      cell: (t) => formatMoney(t.amount),
      sortValue: (t) => Number(t.amount),
      csv: (t) => t.amount,
    },
    {
      id: 'paid',
      header: 'Paid',
      className: 'num',
      cell: (t) => `${t.members_paid} · ${formatMoney(t.total_paid)}`,
      sortValue: (t) => Number(t.total_paid),
      csv: (t) => t.total_paid,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (t) => (
        <span className="row">
          <button
            type="button"
            className="button small"
            onClick={() => {
              setEditing(t);
              setErrors({});
              setFields({
                name: t.name,
                min_business: t.min_business,
                min_active_directs: String(t.min_active_directs),
                amount: t.amount,
              });
            }}
          >
            Edit {t.name}
          </button>
          <button type="button" className="button small danger" onClick={() => setDeleting(t)}>
            Delete {t.name}
          </button>
        </span>
      ),
    },
  ];

  return (
    <div className="stack">
      <form
        className="card form columns"
        onSubmit={save}
        noValidate
        aria-busy={busy}
        aria-label={editing ? `Edit ${editing.name}` : 'New salary tier'}
      >
        <h3 className="span-all">{editing ? `Edit ${editing.name}` : 'New salary tier'}</h3>
        <FormField
          label="Tier name"
          name="name"
          maxLength={60}
          value={fields.name}
          onChange={set('name')}
          error={errors.name}
          disabled={busy}
        />
        <FormField
          label="New team business in the month (USD)"
          name="min_business"
          inputMode="decimal"
          value={fields.min_business}
          onChange={set('min_business')}
          error={errors.min_business}
          disabled={busy}
        />
        <FormField
          label="Active direct members"
          name="min_active_directs"
          inputMode="numeric"
          value={String(fields.min_active_directs)}
          onChange={set('min_active_directs')}
          error={errors.min_active_directs}
          disabled={busy}
        />
        <FormField
          label="Monthly salary (USD)"
          name="amount"
          inputMode="decimal"
          value={fields.amount}
          onChange={set('amount')}
          error={errors.amount}
          disabled={busy}
        />
        <div className="row span-all">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save changes' : 'Create salary tier'}
          </button>
          {editing ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => {
                setEditing(null);
                setFields(EMPTY);
                setErrors({});
              }}
            >
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {note ? (
        <p
          className={note.tone === 'success' ? 'notice' : 'error'}
          role={note.tone === 'success' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      ) : null}
      <DataTable
        caption="Salary tiers"
        columns={columns}
        rows={query.data?.tiers}
        rowKey={(t) => t.id}
        status={query}
        empty="No salary tiers yet."
        noun={['tier', 'tiers']}
        testId="salary-tiers"
        csvName="salary-tiers"
        initialSort={{ id: 'business', desc: false }}
      />
      <DeleteDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => (deleting ? void remove(deleting) : undefined)}
        note="A tier someone has been paid at stays, for their history."
      />
    </div>
  );
}
