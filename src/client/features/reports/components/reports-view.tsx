import { useQuery } from '@tanstack/react-query';
import { REPORT_IDS } from '../../../../shared/reports.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { type ReportParams, reportsQuery } from '../api.ts';
import '../reports.css';
import { PeriodPicker } from './period-picker.tsx';
import { ReportSection } from './report-section.tsx';

/** The admin's reports for the period in the address: the picker, then each report's chart, table and CSV. */
export function ReportsView({
  params,
  onChange,
}: {
  params: ReportParams;
  onChange: (next: ReportParams) => void;
}) {
  const query = useQuery(reportsQuery(params));
  return (
    <div className="stack reports" aria-busy={query.isFetching}>
      <PeriodPicker value={params} onChange={onChange} />
      {query.isPending ? (
        <Spinner label="Loading reports" />
      ) : query.error ? (
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        // The links and labels name the period of the figures on screen (the last one while the next loads).
        REPORT_IDS.map((id) => (
          <ReportSection
            key={id}
            id={id}
            params={{ from: query.data.from, to: query.data.to, group: query.data.group }}
            table={query.data.reports[id]}
          />
        ))
      )}
    </div>
  );
}
