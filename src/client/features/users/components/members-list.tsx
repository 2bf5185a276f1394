import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import '../users.css';
import { type FormEvent, useEffect, useState } from 'react';
import { ACTIVE_FLAGS, type MemberSort, USER_STATUSES, type UserList } from '../../../../shared/users.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { Pager } from '../../../ui/pager.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { type MemberListParams, memberExportUrl, memberListQuery, refreshMembers } from '../api.ts';
import { useAutoClearBanner } from '../use-auto-clear.ts';
import { DeleteMemberDialog, type DeleteTarget } from './delete-member-dialog.tsx';
import { ActiveBadge, StatusBadge } from './member-badges.tsx';
import { MessageBanner } from './message-banner.tsx';

export type ListState = MemberListParams & { sort: MemberSort; order: 'asc' | 'desc' };

/** Text columns start A to Z; dates and money start with the newest or largest. */
const firstOrder = (sort: MemberSort) =>
  sort === 'created_at' || sort === 'business' || sort === 'working' ? 'desc' : 'asc';

function SortHeader({
  label,
  column,
  state,
  onSort,
}: {
  label: string;
  column: MemberSort;
  state: ListState;
  onSort: (column: MemberSort) => void;
}) {
  const active = state.sort === column;
  return (
    <th scope="col" aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="sort-button" aria-pressed={active} onClick={() => onSort(column)}>
        {label}
        <span aria-hidden="true">{active ? (state.order === 'asc' ? '▲' : '▼') : '↕'}</span>
      </button>
    </th>
  );
}

/** /admin/users: every member, a page at a time, searchable, filterable, sortable, with a CSV of the filter. */
export function MembersList({ state, onChange }: { state: ListState; onChange: (next: ListState) => void }) {
  const queryClient = useQueryClient();
  const query = memberListQuery(state);
  const { data, isPending, error, refetch, isFetching } = useQuery(query);
  const [search, setSearch] = useState(state.search ?? '');
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const { banner, success, error: showError } = useAutoClearBanner();
  useEffect(() => setSearch(state.search ?? ''), [state.search]);

  const change = (next: Partial<ListState>) => onChange({ ...state, page: 1, ...next });
  const onSort = (column: MemberSort) =>
    change({
      sort: column,
      order: state.sort === column ? (state.order === 'asc' ? 'desc' : 'asc') : firstOrder(column),
    });
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ search: search.trim() || undefined });
  };

  return (
    <section className="card stack" aria-labelledby="members-title">
      <div className="page-head">
        <h2 id="members-title">Members</h2>
        <a className="button" href={memberExportUrl(state)} download data-testid="export-csv">
          Export CSV
        </a>
      </div>
      <form className="member-filters" onSubmit={submitSearch}>
        <div className="search-box">
          <FormField
            label="Search name, username, e-mail or phone"
            name="search"
            type="search"
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <button type="submit" className="button primary">
          Search
        </button>
        <SelectField
          label="Status"
          name="status"
          value={state.status ?? ''}
          onChange={(e) => change({ status: (e.target.value || undefined) as ListState['status'] })}
        >
          <option value="">All statuses</option>
          {USER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === 'block' ? 'Blocked' : 'Unblocked'}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Active"
          name="is_active"
          value={state.is_active ?? ''}
          onChange={(e) => change({ is_active: (e.target.value || undefined) as ListState['is_active'] })}
        >
          <option value="">Active and inactive</option>
          {ACTIVE_FLAGS.map((s) => (
            <option key={s} value={s}>
              {s === 'active' ? 'Active' : 'Inactive'}
            </option>
          ))}
        </SelectField>
      </form>
      <MessageBanner banner={banner} />
      {isPending ? (
        <Spinner label="Loading members" />
      ) : error ? (
        <QueryError error={error} onRetry={() => refetch()} />
      ) : data.allusers.length === 0 ? (
        <p className="muted" data-testid="members-empty">
          No members match this search.
        </p>
      ) : (
        <>
          <div className="table-scroll" aria-busy={isFetching}>
            <table className="table members-table" data-testid="members-table">
              <caption className="visually-hidden">Members</caption>
              <thead>
                <tr>
                  <SortHeader label="Member" column="fullname" state={state} onSort={onSort} />
                  <SortHeader label="E-mail and phone" column="email" state={state} onSort={onSort} />
                  <th scope="col">Access</th>
                  <SortHeader label="Active Wallet" column="business" state={state} onSort={onSort} />
                  <SortHeader label="Income Working" column="working" state={state} onSort={onSort} />
                  <SortHeader label="Joined" column="created_at" state={state} onSort={onSort} />
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.allusers.map((u) => (
                  <tr key={u.id} data-member-id={u.id}>
                    <td>
                      <Link to="/admin/check/profile/$id" params={{ id: u.id }}>
                        {u.fullname}
                      </Link>
                      <br />
                      <span className="muted">{u.username}</span>
                    </td>
                    <td>
                      {u.email}
                      <br />
                      <span className="muted nowrap">{u.phone}</span>
                    </td>
                    <td>
                      <StatusBadge status={u.status} /> <ActiveBadge isActive={u.is_active} />
                    </td>
                    <td className="nowrap">{formatMoney(u.balance.business)}</td>
                    <td className="nowrap">{formatMoney(u.balance.working)}</td>
                    <td className="nowrap">{formatDateTime(u.created_at)}</td>
                    <td>
                      <button
                        type="button"
                        className="button small danger"
                        aria-label={`Delete ${u.fullname}`}
                        onClick={() => setDeleting({ id: u.id, fullname: u.fullname, email: u.email })}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of members"
            page={data.page}
            pages={data.total_pages}
            total={data.total}
            noun={['member', 'members']}
            onPage={(page) => onChange({ ...state, page })}
            testId="members-page"
          />
        </>
      )}
      <DeleteMemberDialog
        member={deleting}
        onClose={() => setDeleting(null)}
        onError={(text) => {
          setDeleting(null);
          showError(text);
        }}
        onDone={(result) => {
          const id = deleting?.id;
          setDeleting(null);
          success(result.message);
          // Spec 4: a deleted member leaves the list at once; the server's list follows.
          if (result.outcome === 'erased' && id)
            queryClient.setQueryData<UserList>(query.queryKey, (old) =>
              old ? { ...old, allusers: old.allusers.filter((u) => u.id !== id), total: old.total - 1 } : old,
            );
          void refreshMembers(queryClient);
        }}
      />
    </section>
  );
}
