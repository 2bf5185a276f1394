import { lazy, Suspense } from 'react';
import { REPORT_MESSAGES, REPORTS, type ReportId, type ReportTable } from '../../../../shared/reports.ts';
import { Spinner } from '../../../ui/spinner.tsx';
import { type ReportParams, reportExportUrl } from '../api.ts';
import { ReportTableView } from './report-table.tsx';

// The chart library is fetched when the first chart is drawn, never with the rest of the app.
const ReportChart = lazy(() => import('./report-chart.tsx'));

/** A report with nothing in the period: every figure of its totals row is zero. */
const isEmpty = (table: ReportTable) =>
  Object.entries(table.totals).every(([key, value]) => key === 'bucket' || Number(value) === 0);

/** One report: its chart, its table (the same figures) and its CSV, or "Nothing in this period." */
export function ReportSection({
  id,
  params,
  table,
}: {
  id: ReportId;
  params: ReportParams;
  table: ReportTable;
}) {
  const { title, description } = REPORTS[id];
  const titleId = `report-${id}-title`;
  return (
    <section
      className="card stack report"
      id={`report-${id}`}
      aria-labelledby={titleId}
      data-testid={`report-${id}`}
    >
      <div className="report-head">
        <h2 id={titleId}>{title}</h2>
        <a className="button" href={reportExportUrl(params, id)} download data-testid={`report-csv-${id}`}>
          Download CSV
        </a>
      </div>
      <p className="muted">{description}</p>
      {isEmpty(table) ? (
        <p className="muted" data-testid={`report-empty-${id}`}>
          {REPORT_MESSAGES.empty}
        </p>
      ) : (
        <>
          <Suspense fallback={<Spinner label="Loading chart" />}>
            <ReportChart
              id={id}
              table={table}
              label={`Chart of ${title.toLowerCase()} per ${params.group} from ${params.from} to ${params.to} (UTC); the table below has the figures`}
            />
          </Suspense>
          <ReportTableView id={id} group={params.group} table={table} />
        </>
      )}
    </section>
  );
}
