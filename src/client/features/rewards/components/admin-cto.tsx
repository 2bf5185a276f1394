import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type CtoPreview, previousMonth } from '../../../../shared/cto.ts';
import { DIALOG } from '../../../../shared/messages.ts';
import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import { EXCLUSION_REASON_MAX, type Exclusion } from '../../../../shared/rank-exclusions.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { api } from '../../../lib/http.ts';
import { formatUtcMonth } from '../../../lib/utc-days.ts';
import { ActionNoteView, useAdminAction } from '../../../ui/admin-action.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { excludeFromCto, refreshExclusions, restoreToCto } from '../api.ts';

// The CTO on the reward transactions screen (RULES.md "CTO"): a month's pool and who holds the top two
// ranks, and Pay, once a month. An admin can exclude a member from the CTO of every month not yet paid
// (PUT /cto/{id}) and restore them. The figures are the server's; the screen computes nothing.

type Qualifier = CtoPreview['qualifiers'][number];
const name = (m: { fullname: string; username: string }) => `${m.fullname} (@${m.username})`;

const COLUMNS: DataColumn<Qualifier>[] = [
  { id: 'member', header: 'Member', cell: name, csv: (q) => q.username },
  { id: 'rank', header: 'Rank', cell: (q) => q.rank, csv: (q) => q.rank },
  {
    id: 'business',
    header: 'Team business',
    className: 'num',
    cell: (q) => formatUsd(q.team_business),
    sortValue: (q) => Number(q.team_business),
    csv: (q) => q.team_business,
  },
  {
    id: 'share',
    header: 'Share',
    cell: (q) => (q.excluded ? 'Excluded' : 'Counted'),
    csv: (q) => (q.excluded ? 'excluded' : 'counted'),
  },
];

export function AdminCto() {
  const queryClient = useQueryClient();
  const [month, setMonth] = useState(previousMonth());
  const query = useQuery({
    queryKey: ['cto', month],
    queryFn: () => api<CtoPreview>('GET', `/cto?month=${encodeURIComponent(month)}`),
    staleTime: 0,
  });
  const [excluding, setExcluding] = useState<Qualifier | null>(null);
  const [reason, setReason] = useState('');
  const { busy, note, act } = useAdminAction(() => {
    setExcluding(null);
    return refreshExclusions(queryClient);
  });

  const columns: DataColumn<Qualifier>[] = [
    ...COLUMNS,
    {
      id: 'actions',
      header: 'Actions',
      cell: (q) =>
        q.excluded ? (
          <button
            type="button"
            className="button small"
            disabled={busy}
            aria-label={`Restore ${name(q)} to the CTO`}
            onClick={() => act(() => restoreToCto(q.user_id))}
          >
            Restore
          </button>
        ) : (
          <button
            type="button"
            className="button small danger"
            disabled={busy}
            aria-label={`Exclude ${name(q)} from the CTO`}
            onClick={() => {
              setReason('');
              setExcluding(q);
            }}
          >
            Exclude
          </button>
        ),
    },
  ];
  const excludedColumns: DataColumn<Exclusion>[] = [
    { id: 'member', header: 'Member', cell: name, csv: (x) => x.username },
    { id: 'reason', header: 'Reason', cell: (x) => x.reason ?? '', csv: (x) => x.reason },
    {
      id: 'since',
      header: 'Excluded',
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
          aria-label={`Restore ${name(x)} to the CTO`}
          onClick={() => act(() => restoreToCto(x.user_id))}
        >
          Restore
        </button>
      ),
    },
  ];

  const pay = () =>
    act(() =>
      api<{ message: string }>('POST', '/cto/pay', { month }, { 'Idempotency-Key': crypto.randomUUID() }),
    );

  const cto = query.data;
  return (
    <section className="card stack" aria-labelledby="cto-title">
      <h2 id="cto-title">CTO</h2>
      <p className="muted">
        1% of a month's deposits, split equally among the members holding the top two ranks; paid once a
        month.
      </p>
      <label className="field">
        <span>Month (UTC)</span>
        <input
          type="month"
          value={month}
          max={previousMonth()}
          onChange={(e) => e.target.value && setMonth(e.target.value)}
        />
      </label>
      {query.isPending ? <Spinner /> : null}
      {query.error ? <QueryError error={query.error} onRetry={() => query.refetch()} /> : null}
      {cto ? (
        <>
          <dl className="stat-grid" data-testid="cto-figures">
            <div className="stat">
              <dt>Deposits</dt>
              <dd>{formatUsd(cto.deposits)}</dd>
            </div>
            <div className="stat">
              <dt>Pool ({formatPercent(cto.share_percent)})</dt>
              <dd>{formatUsd(cto.pool)}</dd>
            </div>
            <div className="stat">
              <dt>Each member</dt>
              <dd>{formatUsd(cto.payment?.per_member ?? cto.per_member)}</dd>
            </div>
          </dl>
          <p className="muted">
            {cto.ranks.length
              ? `Top two ranks: ${cto.ranks.join(' and ')}.`
              : 'No reward ladder yet: nobody can hold a rank.'}
          </p>
          <DataTable
            caption="Members holding the top two ranks"
            columns={columns}
            rows={cto.qualifiers}
            rowKey={(q) => q.user_id}
            empty="Nobody holds one of the top two ranks."
            noun={['member', 'members']}
            testId="cto-qualifiers"
          />
          {cto.excluded.length ? (
            <>
              <h3>Excluded from the CTO</h3>
              <p className="muted">
                Not counted in the split of any month not yet paid; months already paid stay as paid.
              </p>
              <DataTable
                caption="Excluded from the CTO"
                columns={excludedColumns}
                rows={cto.excluded}
                rowKey={(x) => x.user_id}
                empty="Nobody is excluded."
                noun={['member', 'members']}
                testId="cto-excluded"
              />
            </>
          ) : null}
          {cto.payment ? (
            <p className="notice" data-testid="cto-paid">
              Paid {formatDateTime(cto.payment.paid_at)}: {formatUsd(cto.payment.per_member)} to each of{' '}
              {cto.payment.members} members.
            </p>
          ) : (
            <button type="button" className="button primary" disabled={busy} onClick={pay}>
              {busy ? 'Paying...' : `Pay the CTO of ${formatUtcMonth(month)}`}
            </button>
          )}
        </>
      ) : null}
      <ActionNoteView note={note} />
      <Modal open={excluding !== null} title="Exclude from the CTO" onClose={() => setExcluding(null)}>
        <form
          className="stack"
          aria-label="Exclude from the CTO"
          onSubmit={(event) => {
            event.preventDefault();
            if (excluding) void act(() => excludeFromCto(excluding.user_id, reason.trim()));
          }}
        >
          <p>
            Exclude {excluding ? name(excluding) : ''} from the CTO of every month not yet paid? The pool is
            split among the others; months already paid stay as paid. You can restore them later.
          </p>
          <FormField
            label="Reason (optional)"
            name="reason"
            maxLength={EXCLUSION_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            disabled={busy}
          />
          <div className="modal-actions">
            <button type="button" className="button" onClick={() => setExcluding(null)}>
              {DIALOG.goBack}
            </button>
            <button type="submit" className="button danger" disabled={busy}>
              Exclude
            </button>
          </div>
        </form>
      </Modal>
    </section>
  );
}
