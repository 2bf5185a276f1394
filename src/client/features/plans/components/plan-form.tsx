import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import {
  actPlanInputSchema,
  MAX_PLAN_DURATION_DAYS,
  PLAN_STATUSES,
  type Plan,
  type PlanKind,
  planInputSchema,
} from '../../../../shared/plans.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { createPlan, type PlanFields, refreshPlans, updatePlan } from '../api.ts';
import { kindLabel, statusLabel } from './plan-labels.ts';

const emptyFields = (kind: PlanKind): PlanFields =>
  kind === 'plan'
    ? { name: '', min_amount: '', max_amount: '', roi_percent: '', duration_days: '', status: 'active' }
    : { name: '', amount: '', roi_percent: '', duration_days: '', status: 'active' };

const fieldsOf = (kind: PlanKind, plan: Plan): PlanFields =>
  kind === 'plan'
    ? {
        name: plan.name,
        min_amount: plan.min_amount,
        max_amount: plan.max_amount,
        roi_percent: plan.roi_percent,
        duration_days: String(plan.duration_days),
        status: plan.status,
      }
    : {
        name: plan.name,
        amount: plan.min_amount,
        roi_percent: plan.roi_percent,
        duration_days: String(plan.duration_days),
        status: plan.status,
      };

/**
 * Creates a plan or an activation plan, or edits one (`editing`), in a dialog. The whole form is checked
 * with the schema POST validates (the minimum-maximum check included), and an edit sends every field: the
 * server merges and checks again. What was typed is sent, not the parsed cents, as the API takes it.
 */
export function PlanFormDialog({
  kind,
  open,
  editing,
  onClose,
  onSaved,
}: {
  kind: PlanKind;
  open: boolean;
  editing: Plan | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState<PlanFields>(() => emptyFields(kind));
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();

  useEffect(() => {
    if (!open) return;
    setFields(editing ? fieldsOf(kind, editing) : emptyFields(kind));
    setFailure('');
    setErrors({});
  }, [open, editing, kind, setErrors]);

  const set = (name: string) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    const trimmed = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.trim()]));
    void submitWith(
      kind === 'plan' ? planInputSchema : actPlanInputSchema,
      trimmed,
      async () => {
        const { message } = editing
          ? await updatePlan(kind, editing.id, trimmed)
          : await createPlan(kind, trimmed);
        await refreshPlans(queryClient);
        onSaved(message);
      },
      setFailure,
    );
  }

  const what = kindLabel(kind);
  const title = editing ? `Edit ${what}` : `New ${what}`;
  const common = { autoComplete: 'off', disabled: busy } as const;
  return (
    <Modal open={open} title={title} onClose={() => (busy ? undefined : onClose())}>
      {open ? (
        <form className="form columns plan-form" onSubmit={submit} noValidate aria-busy={busy}>
          <FormField
            label="Name"
            name="name"
            maxLength={100}
            value={fields.name ?? ''}
            onChange={set('name')}
            error={errors.name}
            {...common}
          />
          {kind === 'plan' ? (
            <>
              <FormField
                label="Minimum amount (USD)"
                name="min_amount"
                inputMode="decimal"
                value={fields.min_amount ?? ''}
                onChange={set('min_amount')}
                error={errors.min_amount}
                {...common}
              />
              <FormField
                label="Maximum amount (USD)"
                name="max_amount"
                inputMode="decimal"
                value={fields.max_amount ?? ''}
                onChange={set('max_amount')}
                error={errors.max_amount}
                {...common}
              />
            </>
          ) : (
            <FormField
              label="Price (USD)"
              name="amount"
              inputMode="decimal"
              value={fields.amount ?? ''}
              onChange={set('amount')}
              error={errors.amount}
              hint="One fixed price: its minimum and maximum"
              {...common}
            />
          )}
          <FormField
            label="Daily ROI %"
            name="roi_percent"
            inputMode="decimal"
            value={fields.roi_percent ?? ''}
            onChange={set('roi_percent')}
            error={errors.roi_percent}
            hint="Above 0 and at most 100, 2 decimals"
            {...common}
          />
          <FormField
            label="Duration (days)"
            name="duration_days"
            inputMode="numeric"
            value={fields.duration_days ?? ''}
            onChange={set('duration_days')}
            error={errors.duration_days}
            hint={`1 to ${MAX_PLAN_DURATION_DAYS}`}
            {...common}
          />
          <SelectField
            label="Status"
            name="status"
            value={fields.status ?? 'active'}
            onChange={set('status')}
            error={errors.status}
            disabled={busy}
          >
            {PLAN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </SelectField>
          {editing ? (
            <p className="muted span-all">
              A change applies to investments made from now on; each investment keeps the rate and duration it
              was made with.
            </p>
          ) : null}
          {failure ? (
            <p className="field-error span-all" role="alert">
              {failure}
            </p>
          ) : null}
          <div className="modal-actions span-all">
            <button type="button" className="button" onClick={onClose} disabled={busy}>
              Go back
            </button>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? 'Saving...' : editing ? 'Save changes' : `Create ${what}`}
            </button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
