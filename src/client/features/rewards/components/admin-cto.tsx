import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type CtoPreview, previousMonth } from '../../../../shared/cto.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { api, errorText } from '../../../lib/http.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';

// The CTO on the reward transactions screen (RULES.md "CTO"): a month's pool and who holds the top two
// ranks, and Pay, once a month. The figures are the server's; the screen computes nothing.

type Qualifier = CtoPreview['qualifiers'][number];

const COLUMNS: DataColumn<Qualifier>[] = [
  { id: 'member', header: 'Member', cell: (q) => `${q.fullname} (@${q.username})`, csv: (q) => q.username },
  { id: 'rank', header: 'Rank', cell: (q) => q.rank, csv: (q) => q.rank },
  {
    id: 'business',
    header: 'Team business',
    className: 'num',
    cell: (q) => formatMoney(q.team_business),
    sortValue: (q) => Number(q.team_business),
    csv: (q) => q.team_business,
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
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function pay() {
    setBusy(true);
    setNote(null);
    try {
      const { message } = await api<{ message: string }>(
        'POST',
        '/cto/pay',
        { month },
        { 'Idempotency-Key': crypto.randomUUID() },
      );
      setNote({ tone: 'success', text: message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['cto'] });
    }
  }

  const cto = query.data;
  return (
    <section className="card stack" aria-labelledby="cto-title">
      <h2 id="cto-title">CTO</h2>
      <p className="muted">
        1% of a month's deposits, split equally among the members holding the top two ranks; paid once a
        month.
      </p>
      <label className="field">
        <span>Month</span>
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
              <dd>{formatMoney(cto.deposits)}</dd>
            </div>
            <div className="stat">
              <dt>Pool ({cto.share_percent}%)</dt>
              <dd>{formatMoney(cto.pool)}</dd>
            </div>
            <div className="stat">
              <dt>Each member</dt>
              <dd>{formatMoney(cto.payment?.per_member ?? cto.per_member)}</dd>
            </div>
          </dl>
          <p className="muted">
            {cto.ranks.length
              ? `Top two ranks: ${cto.ranks.join(' and ')}.`
              : 'No reward ladder yet: nobody can hold a rank.'}
          </p>
          <DataTable
            caption="Members holding the top two ranks"
            columns={COLUMNS}
            rows={cto.qualifiers}
            rowKey={(q) => q.user_id}
            empty="Nobody holds one of the top two ranks."
            noun={['member', 'members']}
            testId="cto-qualifiers"
          />
          {cto.payment ? (
            <p className="notice" data-testid="cto-paid">
              Paid {formatDateTime(cto.payment.paid_at)}: {formatMoney(cto.payment.per_member)} to each of{' '}
              {cto.payment.members} members.
            </p>
          ) : (
            <button type="button" className="button primary" disabled={busy} onClick={pay}>
              {busy ? 'Paying...' : `Pay the CTO of ${month}`}
            </button>
          )}
        </>
      ) : null}
      {note ? (
        <p
          className={note.tone === 'success' ? 'notice' : 'error'}
          role={note.tone === 'success' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      ) : null}
    </section>
  );
}
