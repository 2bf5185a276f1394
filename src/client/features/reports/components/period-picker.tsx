import { type FormEvent, useEffect, useState } from 'react';
import { REPORT_MAX_DAYS, reportQuerySchema } from '../../../../shared/reports.ts';
import { validateForm } from '../../../lib/field-errors.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import type { ReportParams } from '../api.ts';

/**
 * The reports' period: from and to (UTC dates, both included) and day or month. Checked with the
 * server's own schema before it goes into the address, so a bad period never leaves the form.
 */
export function PeriodPicker({
  value,
  onChange,
}: {
  value: ReportParams;
  onChange: (next: ReportParams) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => setDraft(value), [value]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validateForm(reportQuerySchema, draft);
    setErrors(checked.errors ?? {});
    if (checked.output) onChange(checked.output);
  }

  return (
    <form className="card report-period" onSubmit={submit} noValidate aria-label="Report period">
      <FormField
        label="From (UTC)"
        name="from"
        type="date"
        value={draft.from}
        error={errors.from}
        onChange={(e) => setDraft({ ...draft, from: e.target.value })}
      />
      <FormField
        label="To (UTC)"
        name="to"
        type="date"
        value={draft.to}
        error={errors.to}
        onChange={(e) => setDraft({ ...draft, to: e.target.value })}
      />
      <SelectField
        label="Per"
        name="group"
        value={draft.group}
        error={errors.group}
        hint={`Up to ${REPORT_MAX_DAYS.day} days by day, 10 years by month`}
        onChange={(e) => setDraft({ ...draft, group: e.target.value as ReportParams['group'] })}
      >
        <option value="day">Day</option>
        <option value="month">Month</option>
      </SelectField>
      <button type="submit" className="button primary">
        Show
      </button>
    </form>
  );
}
