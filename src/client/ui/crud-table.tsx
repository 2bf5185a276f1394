import { type FormEvent, type HTMLAttributes, useState } from 'react';
import type * as v from 'valibot';
import { errorText } from '../lib/http.ts';
import { useSchemaForm } from '../lib/use-schema-form.ts';
import { type ActionNote, ActionNoteView } from './admin-action.tsx';
import { type DataColumn, DataTable } from './data-table.tsx';
import { DeleteDialog } from './dialogs.tsx';
import { FormField } from './form-field.tsx';

/**
 * An admin list of rows the admin manages (salary tiers, reward plans): a form that adds a row or
 * edits the one picked, the table with Edit and Delete on each row, a confirmation before a delete,
 * and the server's answer under the form. Admin screens only (it lives in the admin chunks).
 */

export type CrudField<Fields> = {
  name: keyof Fields & string;
  label: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  maxLength?: number;
};

type TableProps<Row extends { id: string }> = Parameters<typeof DataTable<Row>>[0];

export function CrudTable<Row extends { id: string }, Fields extends Record<string, string | number>, Input>({
  rows,
  status,
  columns,
  table,
  fields: formFields,
  empty,
  toFields,
  title,
  newTitle,
  createLabel,
  headingLevel,
  schema,
  toInput,
  send,
  remove,
  refresh,
  deleteNote,
  editable = true,
}: {
  rows: Row[] | undefined;
  status: TableProps<Row>['status'];
  /** The row's columns; Edit and Delete follow them. */
  columns: DataColumn<Row>[];
  table: Omit<TableProps<Row>, 'columns' | 'rows' | 'rowKey' | 'status'>;
  /** The form's inputs, in order. */
  fields: CrudField<Fields>[];
  /** The form with nothing typed. */
  empty: Fields;
  /** A row put into the form to edit it. */
  toFields: (row: Row) => Fields;
  /** What the row is called on its buttons and in the form's heading ("Edit …", "Delete …"). */
  title: (row: Row) => string;
  /** The form's heading and name when it adds a row. */
  newTitle: string;
  createLabel: string;
  headingLevel: 2 | 3;
  /** The shared schema the server checks with, and the typed form as it is checked and sent. */
  schema: v.GenericSchema;
  toInput: (fields: Fields) => Input;
  /** Creates (editing null) or saves the row; answers the server's message. */
  send: (input: Input, editing: Row | null) => Promise<{ message: string }>;
  remove: (row: Row) => Promise<{ message: string }>;
  /** Reloads the list (and whatever else shows these rows) after a change. */
  refresh: () => Promise<void>;
  deleteNote: string;
  /** False for rows that are only added and deleted (no Edit button). */
  editable?: boolean;
}) {
  const [typed, setTyped] = useState<Fields>(empty);
  const [editing, setEditing] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [note, setNote] = useState<ActionNote>(null);
  const { errors, setErrors, busy, submit } = useSchemaForm();

  const set = (name: keyof Fields) => (event: { target: { value: string } }) =>
    setTyped((current) => ({ ...current, [name]: event.target.value }));

  function save(event: FormEvent) {
    event.preventDefault();
    setNote(null);
    const input = toInput(typed);
    void submit(
      schema,
      input,
      async () => {
        const { message } = await send(input, editing);
        await refresh();
        setNote({ tone: 'success', text: message });
        setTyped(empty);
        setEditing(null);
      },
      (text) => setNote({ tone: 'error', text }),
    );
  }

  async function removeRow(row: Row) {
    setDeleting(null);
    try {
      const { message } = await remove(row);
      setNote({ tone: 'success', text: message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    }
    await refresh();
  }

  const withActions: DataColumn<Row>[] = [
    ...columns,
    {
      id: 'actions',
      header: 'Actions',
      cell: (row) => (
        <span className="row">
          {editable ? (
            <button
              type="button"
              className="button small"
              onClick={() => {
                setEditing(row);
                setErrors({});
                setTyped(toFields(row));
              }}
            >
              Edit {title(row)}
            </button>
          ) : null}
          <button type="button" className="button small danger" onClick={() => setDeleting(row)}>
            Delete {title(row)}
          </button>
        </span>
      ),
    },
  ];

  const heading = editing ? `Edit ${title(editing)}` : newTitle;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="stack">
      <form className="card form columns" onSubmit={save} noValidate aria-busy={busy} aria-label={heading}>
        <Heading className="span-all">{heading}</Heading>
        {formFields.map((field) => (
          <FormField
            key={field.name}
            label={field.label}
            name={field.name}
            {...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {})}
            {...(field.inputMode !== undefined ? { inputMode: field.inputMode } : {})}
            value={String(typed[field.name])}
            onChange={set(field.name)}
            error={errors[field.name]}
            disabled={busy}
          />
        ))}
        <div className="row span-all">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save changes' : createLabel}
          </button>
          {editing ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => {
                setEditing(null);
                setTyped(empty);
                setErrors({});
              }}
            >
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <ActionNoteView note={note} />
      <DataTable {...table} columns={withActions} rows={rows} rowKey={(row) => row.id} status={status} />
      <DeleteDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => (deleting ? void removeRow(deleting) : undefined)}
        note={deleteNote}
      />
    </div>
  );
}
