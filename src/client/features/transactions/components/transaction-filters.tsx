import { type FormEvent, useId, useState } from 'react';
import {
  TRANSACTION_FIT_LABELS,
  TRANSACTION_FITS,
  TRANSACTION_STATUSES,
  TRANSACTION_TABLE_LABELS,
  TRANSACTION_TABLES,
  type TransactionFit,
  type TransactionStatus,
  type TransactionTable,
} from '../../../../shared/transactions.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { statusLabel } from './transaction-row.tsx';

/** What the address holds besides table_name and fit (docs/app.md). */
export type TransactionSearch = {
  status?: TransactionStatus;
  source?: string;
  search?: string;
  page?: number;
};

export type TransactionView = { table: TransactionTable; fit?: TransactionFit; search: TransactionSearch };

const isStatusFit = (fit: string | undefined) => fit === 'pending' || fit === 'completed' || fit === 'failed';

/** How many filters narrow the list: the kind (other than all), the narrowing, status, source, search. */
export const filtersOn = ({ table, fit, search }: TransactionView) =>
  [table !== 'all_transaction', fit, search.status, search.source, search.search].filter(Boolean).length;

/** The transactions' status filter, as members and admins both see it ("Any status" first). */
export function StatusSelect({
  value,
  onChange,
}: {
  value: TransactionStatus | undefined;
  onChange: (status: TransactionStatus | undefined) => void;
}) {
  return (
    <SelectField
      label="Status"
      name="status"
      value={value ?? ''}
      onChange={(e) => onChange((e.target.value || undefined) as TransactionStatus | undefined)}
    >
      <option value="">Any status</option>
      {TRANSACTION_STATUSES.map((s) => (
        <option key={s} value={s}>
          {statusLabel(s)}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * Every filter of the list behind one button, "Filters (2)" saying how many are on, so a phone's first
 * screen shows transactions rather than a form. The form shows what the address holds; "Show results"
 * applies it all at once (first page), "Clear filters" goes back to every transaction.
 */
export function TransactionFilters({
  view,
  onApply,
}: {
  view: TransactionView;
  onApply: (next: TransactionView) => void;
}) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(view);
  const panelId = useId();
  const count = filtersOn(view);
  const toggle = () => {
    // Opening shows the list's filters as they are, not what was typed and left unapplied.
    if (!open) setDraft(view);
    setOpen(!open);
  };
  const apply = (next: TransactionView) => {
    setOpen(false);
    onApply({ ...next, search: { ...next.search, page: undefined } });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const status = isStatusFit(draft.fit) ? undefined : draft.search.status;
    apply({
      ...draft,
      search: {
        status,
        source: draft.search.source?.trim() || undefined,
        search: draft.search.search?.trim() || undefined,
      },
    });
  };
  const setSearch = (changes: TransactionSearch) =>
    setDraft((d) => ({ ...d, search: { ...d.search, ...changes } }));

  return (
    <div className="stack tx-filter-bar">
      <div className="row">
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={toggle}
          data-testid="tx-filters-button"
        >
          {count > 0 ? `Filters (${count})` : 'Filters'}
        </button>
        {count > 0 ? (
          <button
            type="button"
            className="button"
            onClick={() => apply({ table: 'all_transaction', search: {} })}
          >
            Clear filters
          </button>
        ) : null}
      </div>
      {open ? (
        <form
          id={panelId}
          className="card form tx-filters"
          onSubmit={submit}
          aria-label="Filter transactions"
        >
          <SelectField
            label="Type"
            name="table_name"
            value={draft.table}
            onChange={(e) => setDraft((d) => ({ ...d, table: e.target.value as TransactionTable }))}
          >
            {Object.keys(TRANSACTION_TABLES).map((name) => (
              <option key={name} value={name}>
                {TRANSACTION_TABLE_LABELS[name as TransactionTable]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Show"
            name="fit"
            value={draft.fit ?? ''}
            onChange={(e) =>
              setDraft((d) => ({ ...d, fit: (e.target.value || undefined) as TransactionFit | undefined }))
            }
          >
            <option value="">Everything</option>
            {TRANSACTION_FITS.map((f) => (
              <option key={f} value={f}>
                {TRANSACTION_FIT_LABELS[f]}
              </option>
            ))}
          </SelectField>
          {isStatusFit(draft.fit) ? null : (
            <StatusSelect value={draft.search.status} onChange={(status) => setSearch({ status })} />
          )}
          <FormField
            label="Source"
            name="source"
            value={draft.search.source ?? ''}
            placeholder="A username or plan"
            maxLength={100}
            onChange={(e) => setSearch({ source: e.target.value })}
          />
          <FormField
            label="Search transactions"
            name="search"
            type="search"
            value={draft.search.search ?? ''}
            placeholder="Source, description or id"
            maxLength={100}
            onChange={(e) => setSearch({ search: e.target.value })}
          />
          <div className="form-actions">
            <button type="submit" className="button primary">
              Show results
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
