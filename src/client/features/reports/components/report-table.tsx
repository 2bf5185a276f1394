import { formatUsd } from '../../../../shared/money.ts';
import {
  REPORTS,
  type ReportGroup,
  type ReportId,
  type ReportTable,
  reportCsvRows,
} from '../../../../shared/reports.ts';

/**
 * One report as a table: the accessible truth beside its chart. Its lines are the CSV file's lines
 * (shared reportCsvRows), totals last; money is shown in dollars, the file has the same decimal figures.
 */
export function ReportTableView({
  id,
  group,
  table,
}: {
  id: ReportId;
  group: ReportGroup;
  table: ReportTable;
}) {
  const { columns, title } = REPORTS[id];
  const { header, lines } = reportCsvRows(id, group, table);
  const body = lines.slice(0, -1);
  const totals = lines.at(-1) ?? [];
  const shown = (value: string | number | null | undefined, index: number) =>
    index > 0 && columns[index - 1]?.unit === 'money' ? formatUsd(String(value)) : value;
  return (
    <div className="table-scroll report-table">
      <table className="table" data-testid={`report-table-${id}`}>
        <caption className="visually-hidden">
          {title}, per {group} (UTC)
        </caption>
        <thead>
          <tr>
            {header.map((label, i) => (
              <th key={label} scope="col" className={i > 0 ? 'num' : undefined}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((cells) => (
            <tr key={String(cells[0])}>
              {cells.map((cell, i) =>
                i === 0 ? (
                  <th key="bucket" scope="row" className="nowrap">
                    {cell}
                  </th>
                ) : (
                  <td key={header[i]} className="num">
                    {shown(cell, i)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            {totals.map((cell, i) =>
              i === 0 ? (
                <th key="bucket" scope="row">
                  {cell}
                </th>
              ) : (
                <td key={header[i]} className="num">
                  <strong>{shown(cell, i)}</strong>
                </td>
              ),
            )}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
