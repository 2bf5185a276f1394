import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type HTMLAttributes, type ReactNode, useEffect, useMemo, useState } from 'react';
import type * as v from 'valibot';
import { useOffline } from '../lib/offline.ts';
import { useSchemaForm } from '../lib/use-schema-form.ts';
import { type ActionNote, ActionNoteView } from './admin-action.tsx';
import { type DataColumn, DataTable } from './data-table.tsx';
import { FormField, SelectField, TextAreaField } from './form-field.tsx';
import { Modal } from './modal.tsx';
import { MoneyOfflineNote } from './offline-notice.tsx';

/**
 * An admin's queue of money requests (manual deposits, on-chain deposits): the list filtered by a
 * status kept in the address, Approve and Reject on each request still waiting, and the dialog that
 * checks the decision with the shared schema before it is sent. A refusal (a 409: someone decided it
 * meanwhile) stays in the dialog and the list is reloaded either way. Admin screens only.
 */

/** One input of the decision dialog; its value is kept as typed. */
export type ReviewField<Row> = {
  name: string;
  label: string;
  hint: string;
  /** A multi-line box (a reason or a note) instead of a one-line input. */
  multiline?: boolean;
  maxLength?: number;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  /** What it holds when the dialog opens (empty when left out). */
  initial?: (row: Row) => string;
};

/** The reason (or note) box, 3 to 500 characters as the shared reason schema says. */
export const reasonField = <Row,>(label: string): ReviewField<Row> => ({
  name: 'reason',
  label,
  hint: '3 to 500 characters',
  multiline: true,
  maxLength: 500,
});

/** Approving or rejecting: the dialog's title and inputs, and the request it makes. */
export type ReviewAction<Row, S extends v.GenericSchema> = {
  title: string;
  /** Said above the inputs (what approving does, say). */
  explain?: (row: Row) => ReactNode;
  fields: ReviewField<Row>[];
  /** The shared schema the server checks with, and the typed dialog as it is checked and sent. */
  schema: S;
  toInput: (typed: Record<string, string>, row: Row) => unknown;
  send: (input: v.InferOutput<S>, row: Row) => Promise<{ message: string }>;
};

/** The status the list is filtered by; it lives in the address, so the screen's route keeps it. */
export type StatusFilter<Status> = {
  status: Status | undefined;
  onStatus: (status: Status | undefined) => void;
};

type Decision<Row> = { row: Row; action: 'approve' | 'reject' | 'assign' };
type TableProps<Row extends { id: string }> = Parameters<typeof DataTable<Row>>[0];

export function ReviewTable<
  Row extends { id: string; status: Status },
  Status extends string,
  Approve extends v.GenericSchema,
  Reject extends v.GenericSchema,
  Assign extends v.GenericSchema = v.GenericSchema,
>({
  title,
  headingId,
  className = 'card',
  columns,
  rows,
  query,
  table,
  filter,
  status,
  onStatus,
  canDecide,
  actionsClassName,
  summary,
  approve,
  reject,
  assign,
  refresh,
}: {
  /** The section's heading and the table's caption. */
  title: string;
  headingId: string;
  className?: string;
  /** The request's columns, newest first by the one with the id `date`; Action (Approve, Reject) follows. */
  columns: DataColumn<Row>[];
  rows: Row[] | undefined;
  query: TableProps<Row>['status'];
  table: Omit<TableProps<Row>, 'caption' | 'columns' | 'rows' | 'rowKey' | 'status' | 'empty' | 'toolbar'>;
  /** The status select: its label and name, the statuses in order and what each is called. */
  filter: { label: string; name: string; statuses: readonly Status[]; labels: Record<Status, string> };
  /** Whether the request still waits for an admin (it gets Approve and Reject). */
  canDecide: (row: Row) => boolean;
  actionsClassName: string;
  /** The request in words at the top of the dialog. */
  summary: (row: Row) => ReactNode;
  approve: ReviewAction<Row, Approve>;
  reject: ReviewAction<Row, Reject>;
  /** Handing a request to another member (an on-chain deposit someone else submitted), where it may be. */
  assign?: { action: ReviewAction<Row, Assign>; allowed: (row: Row) => boolean };
  /** Reloads every list that shows these requests (and the balances a decision changes). */
  refresh: (queryClient: QueryClient) => Promise<unknown>;
} & StatusFilter<Status>) {
  const [deciding, setDeciding] = useState<Decision<Row> | null>(null);
  const [done, setDone] = useState<ActionNote>(null);
  const withActions = useMemo<DataColumn<Row>[]>(() => {
    const open = (decision: Decision<Row>) => {
      setDone(null);
      setDeciding(decision);
    };
    return [
      ...columns,
      {
        id: 'action',
        header: 'Action',
        cell: (row) => {
          const deciding = canDecide(row);
          const assigning = assign?.allowed(row) ?? false;
          if (!deciding && !assigning) return null;
          return (
            <div className={actionsClassName}>
              {deciding ? (
                <>
                  <button
                    type="button"
                    className="button small primary"
                    onClick={() => open({ row, action: 'approve' })}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="button small danger"
                    onClick={() => open({ row, action: 'reject' })}
                  >
                    Reject
                  </button>
                </>
              ) : null}
              {assigning ? (
                <button
                  type="button"
                  className="button small"
                  onClick={() => open({ row, action: 'assign' })}
                >
                  Assign
                </button>
              ) : null}
            </div>
          );
        },
      },
    ];
  }, [columns, canDecide, actionsClassName, assign]);

  return (
    <section className={className} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ActionNoteView note={done} />
      <DataTable
        initialSort={{ id: 'date', desc: true }}
        pageSize={25}
        {...table}
        caption={title}
        columns={withActions}
        rows={rows}
        rowKey={(row) => row.id}
        status={query}
        empty={`No ${table.noun[1]}${status ? ` with the status ${filter.labels[status]}` : ''}.`}
        toolbar={
          <SelectField
            label={filter.label}
            name={filter.name}
            value={status ?? ''}
            onChange={(e) => onStatus((e.target.value || undefined) as Status | undefined)}
          >
            <option value="">All statuses</option>
            {filter.statuses.map((s) => (
              <option key={s} value={s}>
                {filter.labels[s]}
              </option>
            ))}
          </SelectField>
        }
      />
      <DecisionDialog
        decision={deciding}
        summary={summary}
        approve={approve}
        reject={reject}
        assign={assign?.action}
        refresh={refresh}
        onClose={() => setDeciding(null)}
        onDecided={(message) => {
          setDeciding(null);
          setDone({ tone: 'success', text: message });
        }}
      />
    </section>
  );
}

function DecisionDialog<
  Row,
  Approve extends v.GenericSchema,
  Reject extends v.GenericSchema,
  Assign extends v.GenericSchema,
>({
  decision,
  summary,
  approve,
  reject,
  assign,
  refresh,
  onClose,
  onDecided,
}: {
  decision: Decision<Row> | null;
  summary: (row: Row) => ReactNode;
  approve: ReviewAction<Row, Approve>;
  reject: ReviewAction<Row, Reject>;
  assign: ReviewAction<Row, Assign> | undefined;
  refresh: (queryClient: QueryClient) => Promise<unknown>;
  onClose: () => void;
  onDecided: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const approving = decision?.action === 'approve';
  const assigning = decision?.action === 'assign' && assign !== undefined;
  const { title, explain, fields } = assigning ? assign : approving ? approve : reject;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a request opened starts with its action's form as new
  useEffect(() => {
    const row = decision?.row;
    setTyped(Object.fromEntries(fields.map((f) => [f.name, row && f.initial ? f.initial(row) : ''])));
    setFailure('');
    setErrors({});
  }, [decision, setErrors]);

  function decide<S extends v.GenericSchema>(action: ReviewAction<Row, S>, row: Row) {
    void submitWith(
      action.schema,
      action.toInput(typed, row),
      async (input) => {
        const { message } = await action.send(input, row);
        void refresh(queryClient);
        onDecided(message);
      },
      (text) => {
        setFailure(text);
        // A 409 means someone decided it meanwhile (or the amount is not the one the chain showed): the
        // list should say what the request is now.
        void refresh(queryClient);
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!decision || offline) return;
    setFailure('');
    if (decision.action === 'approve') decide(approve, decision.row);
    else if (decision.action === 'assign' && assign) decide(assign, decision.row);
    else decide(reject, decision.row);
  }

  return (
    <Modal open={decision !== null} title={title} onClose={() => (busy ? undefined : onClose())}>
      {decision ? (
        <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
          {summary(decision.row)}
          {explain?.(decision.row)}
          {fields.map((field) => {
            const props = {
              label: field.label,
              name: field.name,
              maxLength: field.maxLength,
              value: typed[field.name] ?? '',
              onChange: (e: { target: { value: string } }) =>
                setTyped((current) => ({ ...current, [field.name]: e.target.value })),
              error: errors[field.name],
              hint: field.hint,
              disabled: busy,
            };
            return field.multiline ? (
              <TextAreaField key={field.name} rows={3} {...props} />
            ) : (
              <FormField key={field.name} inputMode={field.inputMode} {...props} />
            );
          })}
          {failure ? (
            <p className="field-error" role="alert">
              {failure}
            </p>
          ) : null}
          <MoneyOfflineNote />
          <div className="modal-actions">
            <button type="button" className="button" onClick={onClose} disabled={busy}>
              Go back
            </button>
            <button
              type="submit"
              className={`button ${approving || assigning ? 'primary' : 'danger'}`}
              disabled={busy || offline}
            >
              {busy ? 'Saving...' : assigning ? 'Assign' : approving ? 'Approve and credit' : 'Reject'}
            </button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
