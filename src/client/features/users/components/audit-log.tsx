import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd } from '../../../../shared/money.ts';
import '../users.css';
import {
  AUDIT_MESSAGES,
  type AuditChange,
  type AuditEntry,
  auditChanges,
  auditSummary,
  auditValueText,
} from '../../../../shared/audit.ts';
import { BreakPoints, LongWordBreaks } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DateTime } from '../../../ui/date-time.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { type AuditParams, auditLogQuery } from '../api.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A changed value as a person reads it: money in dollars, a stored time as a date, an id wrapping at its joints. */
function Value({ change, value }: { change: AuditChange; value: unknown }) {
  if (change.money && typeof value === 'string') return <>{formatUsd(value)}</>;
  if (typeof value === 'string' && ISO_TIME.test(value)) return <DateTime iso={value} />;
  return <LongWordBreaks text={auditValueText(change.field, value)} />;
}

/** Only what the action changed, "Status: Unblocked → Blocked"; a field set from nothing shows its value. */
function Changes({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry);
  if (changes.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="audit-changes">
      {changes.map((c) => (
        <li key={c.field} data-field={c.field}>
          <span className="muted">{c.label}:</span>{' '}
          {c.before === undefined ? null : (
            <>
              <Value change={c} value={c.before} /> →{' '}
            </>
          )}
          <Value change={c} value={c.after} />
        </li>
      ))}
    </ul>
  );
}

const raw = (value: unknown) =>
  value === null || value === undefined ? '—' : JSON.stringify(value, null, 1);

/** The ids and the stored values as they are, for the admin who needs them: closed until asked. */
function Details({ entry }: { entry: AuditEntry }) {
  return (
    <details className="audit-details">
      <summary>Details</summary>
      <dl>
        <dt>Entry</dt>
        <dd className="nowrap">{entry.id}</dd>
        <dt>Action</dt>
        <dd>{entry.action}</dd>
        <dt>Admin</dt>
        <dd>
          <BreakPoints text={entry.admin.email} /> <span className="nowrap">({entry.admin.id})</span>
        </dd>
        <dt>About</dt>
        <dd>
          {entry.target_type} <span className="nowrap">{entry.target_id}</span>
        </dd>
        <dt>Before</dt>
        <dd>
          <pre>{raw(entry.before)}</pre>
        </dd>
        <dt>After</dt>
        <dd>
          <pre>{raw(entry.after)}</pre>
        </dd>
      </dl>
    </details>
  );
}

function Target({ entry }: { entry: AuditEntry }) {
  if (!entry.member) return <span className="muted">{entry.target_type}</span>;
  const name = entry.member.fullname || 'Unnamed member';
  const email = entry.member.email ? <BreakPoints text={entry.member.email} /> : 'no e-mail';
  return entry.member.erased ? (
    <span>
      {name} <span className="badge grey">erased</span>
      <br />
      <span className="muted">{email}</span>
    </span>
  ) : (
    <span>
      <Link to="/admin/check/profile/$id" params={{ id: entry.member.id }}>
        {name}
      </Link>
      <br />
      <span className="muted">{email}</span>
    </span>
  );
}

const COLUMNS: DataColumn<AuditEntry>[] = [
  { id: 'when', header: 'When', cell: (e) => <DateTime iso={e.created_at} /> },
  { id: 'admin', header: 'Admin', cell: (e) => e.admin.fullname },
  {
    id: 'what',
    header: 'What',
    cell: (e) => (
      <>
        <strong>{auditSummary(e)}</strong>
        <br />
        <Target entry={e} />
      </>
    ),
  },
  {
    id: 'changes',
    header: 'Changes',
    cell: (e) => (
      <>
        <Changes entry={e} />
        <Details entry={e} />
      </>
    ),
  },
  { id: 'reason', header: 'Reason', cell: (e) => e.reason ?? '—' },
];

/** The audit log (RULES.md "Accounts"): who changed what, only what changed, and when; by member and by admin. */
export function AuditLog({
  params,
  onChange,
}: {
  params: AuditParams;
  onChange: (next: AuditParams) => void;
}) {
  const query = useQuery(auditLogQuery(params));
  const { data } = query;

  return (
    <section className="card stack audit-log" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p className="muted">
        Every change an admin makes to a member, to money or to settings: who, what changed and when. Ids and
        the stored values are under each entry's Details.
      </p>
      <DataTable
        caption="Audit log entries, newest first"
        columns={COLUMNS}
        rows={data?.entries}
        rowKey={(e) => e.id}
        rowProps={(e) => ({ 'data-action': e.action })}
        status={query}
        empty={AUDIT_MESSAGES.empty}
        noun={['entry', 'entries']}
        testId="audit-table"
        searchLabel="Member (e-mail, username or id)"
        toolbar={
          <>
            <SelectField
              label="Admin"
              name="admin"
              value={params.admin ?? ''}
              onChange={(e) => onChange({ ...params, admin: e.target.value || undefined, page: 1 })}
            >
              <option value="">All admins</option>
              {data?.admins.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.fullname} ({a.email})
                </option>
              ))}
            </SelectField>
            {params.member || params.admin ? (
              <button type="button" className="button" onClick={() => onChange({ page: 1 })}>
                Clear filter
              </button>
            ) : null}
          </>
        }
        server={{
          page: data?.page ?? params.page,
          pages: data?.total_pages ?? 1,
          total: data?.total ?? 0,
          onPage: (page) => onChange({ ...params, page }),
          search: params.member ?? '',
          onSearch: (text) => onChange({ ...params, member: text || undefined, page: 1 }),
        }}
      />
    </section>
  );
}
