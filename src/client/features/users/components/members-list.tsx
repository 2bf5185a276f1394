import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatUsd } from '../../../../shared/money.ts';
import '../users.css';
import { useState } from 'react';
import {
  ACTIVE_FLAGS,
  INVESTED_FILTERS,
  type MemberSort,
  type MemberWithBalance,
  USER_STATUSES,
  type UserList,
} from '../../../../shared/users.ts';
import { BreakPoints } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DateTime } from '../../../ui/date-time.tsx';
import { SelectField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { type MemberListParams, memberExportUrl, memberListQuery, refreshMembers } from '../api.ts';
import { DeleteMemberDialog, type DeleteTarget } from './delete-member-dialog.tsx';
import { ActiveBadge, StatusBadge } from './member-badges.tsx';

export type ListState = MemberListParams & { sort: MemberSort; order: 'asc' | 'desc' };

const INVESTED_LABELS: Record<(typeof INVESTED_FILTERS)[number], string> = {
  any: 'Any',
  never: 'Never',
  yes: 'Yes',
};

/**
 * Seven columns used to clip "Delete" at 1366 px; now five. The name, username and access badges share
 * one column, the e-mail and phone another; the row opens the profile (the name is its link).
 */
function columns(onDelete: (member: DeleteTarget) => void): DataColumn<MemberWithBalance>[] {
  return [
    {
      id: 'fullname',
      header: 'Member',
      sortValue: (u) => u.fullname,
      cell: (u) => (
        <>
          <Link className="row-link" to="/admin/check/profile/$id" params={{ id: u.id }}>
            {u.fullname}
          </Link>
          <br />
          <span className="muted">{u.username}</span>
          <br />
          <StatusBadge status={u.status} /> <ActiveBadge isActive={u.is_active} />
        </>
      ),
    },
    {
      id: 'email',
      header: 'E-mail and phone',
      sortValue: (u) => u.email,
      cell: (u) => (
        <>
          <BreakPoints text={u.email} />
          <br />
          <span className="muted nowrap">{u.phone}</span>
        </>
      ),
    },
    {
      id: 'business',
      header: 'Active Wallet',
      sortValue: (u) => u.balance.business,
      descFirst: true,
      className: 'num',
      cell: (u) => formatUsd(u.balance.business),
    },
    {
      id: 'working',
      header: 'Income Working',
      sortValue: (u) => u.balance.working,
      descFirst: true,
      className: 'num',
      cell: (u) => formatUsd(u.balance.working),
    },
    {
      id: 'created_at',
      header: 'Joined',
      sortValue: (u) => u.created_at,
      descFirst: true,
      cell: (u) => <DateTime iso={u.created_at} />,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (u) => (
        <button
          type="button"
          className="button small danger"
          aria-label={`Delete ${u.fullname}`}
          onClick={() => onDelete({ id: u.id, fullname: u.fullname, email: u.email })}
        >
          Delete
        </button>
      ),
    },
  ];
}

/** /admin/users: every member, a page at a time, searchable, filterable, sortable, with a CSV of the filter. */
export function MembersList({ state, onChange }: { state: ListState; onChange: (next: ListState) => void }) {
  const queryClient = useQueryClient();
  const query = memberListQuery(state);
  const result = useQuery(query);
  const { data } = result;
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  // A banner brought from the profile (a member erased there) shows here for its 3 s.
  const { banner, success, error: showError } = useAutoClearBanner({ takeCarried: true });
  const [memberColumns] = useState(() => columns(setDeleting));

  const change = (next: Partial<ListState>) => onChange({ ...state, page: 1, ...next });

  return (
    <section className="card stack" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <MessageBanner banner={banner} />
      <DataTable
        caption="Members"
        columns={memberColumns}
        rows={data?.allusers}
        rowKey={(u) => u.id}
        rowProps={(u) => ({ 'data-member-id': u.id })}
        status={result}
        empty="No members match these filters."
        noun={['member', 'members']}
        testId="members"
        searchLabel="Search name, username, e-mail or phone"
        toolbar={
          <>
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
            <SelectField
              label="Invested"
              name="invested"
              value={state.invested ?? 'any'}
              onChange={(e) => {
                const invested = e.target.value as NonNullable<ListState['invested']>;
                change({ invested: invested === 'any' ? undefined : invested });
              }}
            >
              {INVESTED_FILTERS.map((s) => (
                <option key={s} value={s}>
                  {INVESTED_LABELS[s]}
                </option>
              ))}
            </SelectField>
          </>
        }
        server={{
          page: data?.page ?? state.page,
          pages: data?.total_pages ?? 1,
          total: data?.total ?? 0,
          onPage: (page) => onChange({ ...state, page }),
          sort: { id: state.sort, desc: state.order === 'desc' },
          onSort: (id, desc) => change({ sort: id as MemberSort, order: desc ? 'desc' : 'asc' }),
          search: state.search ?? '',
          onSearch: (text) => change({ search: text || undefined }),
          csvHref: memberExportUrl(state),
        }}
      />
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
