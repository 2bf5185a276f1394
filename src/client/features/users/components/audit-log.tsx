import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import '../users.css';
import { type FormEvent, useEffect, useState } from 'react';
import { AUDIT_MESSAGES, type AuditEntry, auditActionLabel } from '../../../../shared/audit.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { Pager } from '../../../ui/pager.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { type AuditParams, auditLogQuery } from '../api.ts';

const show = (value: unknown): string =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** A before or after value: an object as key and value lines, anything else as it is. */
function Values({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (typeof value !== 'object' || Array.isArray(value)) return <span>{show(value)}</span>;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="audit-values">
      {entries.map(([key, v]) => (
        <div key={key}>
          <dt>{key}:</dt>
          <dd>{show(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Target({ entry }: { entry: AuditEntry }) {
  if (entry.member) {
    const label = `${entry.member.fullname || entry.member.id} (${entry.member.email || 'no e-mail'})`;
    return entry.member.erased ? (
      <span>
        {label} <span className="badge grey">erased</span>
      </span>
    ) : (
      <Link to="/admin/check/profile/$id" params={{ id: entry.member.id }}>
        {label}
      </Link>
    );
  }
  return (
    <span>
      {entry.target_type} <span className="muted">{entry.target_id}</span>
    </span>
  );
}

/** The audit log (RULES.md "Accounts"): who changed what, before, after and when; by member and by admin. */
export function AuditLog({
  params,
  onChange,
}: {
  params: AuditParams;
  onChange: (next: AuditParams) => void;
}) {
  const { data, isPending, error, refetch, isFetching } = useQuery(auditLogQuery(params));
  const [member, setMember] = useState(params.member ?? '');
  useEffect(() => setMember(params.member ?? ''), [params.member]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...params, member: member.trim() || undefined, page: 1 });
  };

  return (
    <section className="card stack" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p className="muted">
        Every change an admin makes to a member, to money or to settings, with who, what, before, after and
        when.
      </p>
      <form className="member-filters" onSubmit={submit}>
        <div className="search-box">
          <FormField
            label="Member (e-mail, username or id)"
            name="member"
            type="search"
            autoComplete="off"
            value={member}
            onChange={(e) => setMember(e.target.value)}
          />
        </div>
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
        <button type="submit" className="button primary">
          Filter
        </button>
        {params.member || params.admin ? (
          <button type="button" className="button" onClick={() => onChange({ page: 1 })}>
            Clear filter
          </button>
        ) : null}
      </form>
      {isPending ? (
        <Spinner label="Loading the audit log" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : data.entries.length === 0 ? (
        <p className="muted" data-testid="audit-empty">
          {AUDIT_MESSAGES.empty}
        </p>
      ) : (
        <>
          <div className="table-scroll" aria-busy={isFetching}>
            <table className="table audit-table" data-testid="audit-table">
              <caption className="visually-hidden">Audit log entries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Admin</th>
                  <th scope="col">What</th>
                  <th scope="col">About</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id} data-action={e.action}>
                    <td className="nowrap">{formatDateTime(e.created_at)}</td>
                    <td>
                      {e.admin.fullname}
                      <br />
                      <span className="muted">{e.admin.email}</span>
                    </td>
                    <td>{auditActionLabel(e.action)}</td>
                    <td>
                      <Target entry={e} />
                    </td>
                    <td>
                      <Values value={e.before} />
                    </td>
                    <td>
                      <Values value={e.after} />
                    </td>
                    <td>{e.reason ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of the audit log"
            page={data.page}
            pages={data.total_pages}
            total={data.total}
            noun={['entry', 'entries']}
            onPage={(page) => onChange({ ...params, page })}
          />
        </>
      )}
    </section>
  );
}
