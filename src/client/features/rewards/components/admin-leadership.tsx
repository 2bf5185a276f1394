import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Leader } from '../../../../shared/leadership.ts';
import { DIALOG } from '../../../../shared/messages.ts';
import { formatUsd } from '../../../../shared/money.ts';
import type { Exclusion } from '../../../../shared/rank-exclusions.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { api } from '../../../lib/http.ts';
import { ActionNoteView, useAdminAction } from '../../../ui/admin-action.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { refreshExclusions, removeFromLeadership, restoreToLeadership } from '../api.ts';

const name = (m: { fullname: string; username: string }) => `${m.fullname} (@${m.username})`;

const COLUMNS: DataColumn<Leader>[] = [
  {
    id: 'member',
    header: 'Member',
    cell: name,
    searchText: (l) => `${l.username} ${l.fullname} ${l.rank}`,
    csv: (l) => l.username,
  },
  { id: 'rank', header: 'Rank', cell: (l) => l.rank, csv: (l) => l.rank },
  {
    id: 'business',
    header: 'Team business',
    className: 'num',
    cell: (l) => formatUsd(l.team_business),
    sortValue: (l) => Number(l.team_business),
    descFirst: true,
    csv: (l) => l.team_business,
  },
];

/**
 * Leadership: members by the highest rung their team business reaches (GET /leadership/list). An admin
 * can take a member off the list (DELETE /leadership/{id}; their rank and rewards stay) and put them back.
 */
export function AdminLeadership() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['rewards', 'leadership'],
    queryFn: () => api<{ leaders: Leader[]; removed: Exclusion[] }>('GET', '/leadership/list'),
    staleTime: 0,
  });
  const [removing, setRemoving] = useState<Leader | null>(null);
  const { busy, note, act } = useAdminAction(() => {
    setRemoving(null);
    return refreshExclusions(queryClient);
  });

  const columns: DataColumn<Leader>[] = [
    ...COLUMNS,
    {
      id: 'actions',
      header: 'Actions',
      cell: (l) => (
        <button
          type="button"
          className="button small danger"
          disabled={busy}
          aria-label={`Remove ${name(l)} from the list`}
          onClick={() => setRemoving(l)}
        >
          Remove
        </button>
      ),
    },
  ];
  const removedColumns: DataColumn<Exclusion>[] = [
    { id: 'member', header: 'Member', cell: name, csv: (x) => x.username },
    {
      id: 'removed',
      header: 'Removed',
      cell: (x) => formatDateTime(x.created_at),
      sortValue: (x) => x.created_at,
      descFirst: true,
      csv: (x) => x.created_at,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (x) => (
        <button
          type="button"
          className="button small"
          disabled={busy}
          aria-label={`Restore ${name(x)}`}
          onClick={() => act(() => restoreToLeadership(x.user_id))}
        >
          Restore
        </button>
      ),
    },
  ];

  return (
    <section className="stack" aria-labelledby="leadership-title">
      <h2 id="leadership-title">Leadership</h2>
      <ActionNoteView note={note} />
      <DataTable
        caption="Leadership"
        columns={columns}
        rows={query.data?.leaders}
        rowKey={(l) => l.user_id}
        status={query}
        empty="No member's team business reaches a rank yet."
        noun={['leader', 'leaders']}
        testId="leadership"
        searchLabel="Search member or rank"
        csvName="leadership"
      />
      {query.data?.removed.length ? (
        <>
          <h3>Removed from the list</h3>
          <p className="muted">Their rank and rewards are unchanged; they are only not listed here.</p>
          <DataTable
            caption="Removed from the list"
            columns={removedColumns}
            rows={query.data.removed}
            rowKey={(x) => x.user_id}
            empty="Nobody is removed from the list."
            noun={['member', 'members']}
            testId="leadership-removed"
          />
        </>
      ) : null}
      <Modal open={removing !== null} title="Remove from the list" onClose={() => setRemoving(null)}>
        <p>
          Remove {removing ? name(removing) : ''} from the leadership list? Their rank and rewards stay as
          they are; you can restore them later.
        </p>
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setRemoving(null)}>
            {DIALOG.goBack}
          </button>
          <button
            type="button"
            className="button danger"
            disabled={busy}
            onClick={() => (removing ? void act(() => removeFromLeadership(removing.user_id)) : undefined)}
          >
            Remove
          </button>
        </div>
      </Modal>
    </section>
  );
}
