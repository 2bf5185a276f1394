import { useQuery } from '@tanstack/react-query';
import { DISCLOSURE_DAYS, DISCLOSURE_TEXT } from '../../../../shared/disclosure.ts';
import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { disclosureQuery } from '../api.ts';

/** The public income disclosure: every figure as the server computed it from the ledger. */
export function IncomeDisclosure() {
  const query = useQuery(disclosureQuery);
  const d = query.data;
  return (
    <div className="stack">
      <header>
        <h1>{DISCLOSURE_TEXT.title}</h1>
        <p>{DISCLOSURE_TEXT.intro(DISCLOSURE_DAYS)}</p>
        <p className="notice" role="note">
          {DISCLOSURE_TEXT.warning}
        </p>
      </header>
      {query.isPending ? <Spinner /> : null}
      {query.error ? <QueryError error={query.error} onRetry={() => query.refetch()} /> : null}
      {d ? (
        <section className="card stack" aria-labelledby="disclosure-bands">
          <h2 id="disclosure-bands">{DISCLOSURE_TEXT.period(d.from, d.to)}</h2>
          <div className="table-scroll">
            <table className="table" data-testid="disclosure-bands">
              <caption className="visually-hidden">{DISCLOSURE_TEXT.earned}</caption>
              <thead>
                <tr>
                  <th scope="col">{DISCLOSURE_TEXT.earned}</th>
                  <th scope="col" className="num">
                    {DISCLOSURE_TEXT.members}
                  </th>
                  <th scope="col" className="num">
                    {DISCLOSURE_TEXT.share}
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.bands.map((band) => (
                  <tr key={band.id} data-band={band.id}>
                    <th scope="row">{band.label}</th>
                    <td className="num">{band.members}</td>
                    <td className="num">{formatPercent(band.share_percent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl className="stat-grid">
            <div className="stat">
              <dt>{DISCLOSURE_TEXT.members}</dt>
              <dd data-testid="disclosure-members">{d.members}</dd>
            </div>
            <div className="stat">
              <dt>{DISCLOSURE_TEXT.median}</dt>
              <dd data-testid="disclosure-median">{formatUsd(d.median)}</dd>
            </div>
            <div className="stat">
              <dt>{DISCLOSURE_TEXT.incomePaid}</dt>
              <dd data-testid="disclosure-income">{formatUsd(d.income_paid)}</dd>
            </div>
            <div className="stat">
              <dt>{DISCLOSURE_TEXT.deposits}</dt>
              <dd data-testid="disclosure-deposits">{formatUsd(d.deposits)}</dd>
            </div>
          </dl>
          <p className="muted">{DISCLOSURE_TEXT.computedAt(formatDateTime(d.computed_at))}</p>
        </section>
      ) : null}
    </div>
  );
}
