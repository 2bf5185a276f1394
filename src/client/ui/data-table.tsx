import {
  type ColumnDef,
  columnFilteringFeature,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  globalFilteringFeature,
  type PaginationState,
  type RowData,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  sortFn_basic,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from 'react';
import { csvDocument } from '../../shared/csv.ts';
import { Pager } from './pager.tsx';
import { QueryError } from './query-error.tsx';
import { Spinner } from './spinner.tsx';

/**
 * The one table of the app (admin tables and member lists alike), on TanStack Table: a caption, an
 * optional search box and filters, sortable headers, pages, "Export CSV", and the loading, error and
 * empty views, so every list behaves the same.
 *
 * - Client mode (default): `rows` is the whole list; search, sorting, pages and the CSV (every row
 *   that matches the search, in the shown order) happen here.
 * - Server mode (`server`): `rows` is the page the server sent; the caller keeps page, sort and
 *   search (usually in the address) and gets them back through the callbacks; the CSV is a link
 *   (`server.csvHref`) to the server's export of the whole filter.
 * - `layout="stacked"`: on a phone (under 640 px) each row becomes a card, its cells stacked with
 *   their column names; on wider screens it stays a table.
 * - The whole row opens its item: give the item's link `className="row-link"` in one cell and the
 *   link covers the row (a plain link, so keyboard and screen readers see one link, not a clickable
 *   row). Other controls in that row stay clickable above it.
 */
export type DataColumn<T extends RowData> = {
  /** Unique; in server mode also the sort key sent to the server. */
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The value sorted on; a column sorts only when it has one (server mode: any value marks it sortable). */
  sortValue?: (row: T) => string | number;
  /** The text the search box matches (client mode), case-insensitive. */
  searchText?: (row: T) => string;
  /** The cell in "Export CSV" (client mode); columns without it are left out of the file. */
  csv?: (row: T) => string | number | null | undefined;
  /** `num` right-aligns figures, `nowrap` keeps a cell on one line, `hide-stacked` leaves it out of phone cards. */
  className?: string;
  /**
   * Only in "Export CSV", never on screen: a figure the table shows inside another column (to fit a
   * laptop) keeps a column of its own in the spreadsheet.
   */
  csvOnly?: boolean;
  /** Numbers and dates start with the largest/newest first when first sorted. */
  descFirst?: boolean;
};

export type ServerPaging = {
  page: number;
  pages: number;
  total: number;
  onPage: (page: number) => void;
  sort?: { id: string; desc: boolean };
  onSort?: (id: string, desc: boolean) => void;
  search?: string;
  onSearch?: (text: string) => void;
  csvHref?: string;
};

type Status = { isPending: boolean; error: unknown; isFetching?: boolean; refetch: () => unknown };
/** Rows a screen already has in hand (part of a larger answer): nothing to load, nothing to retry. */
const IN_HAND: Status = { isPending: false, error: null, refetch: () => undefined };

const features = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  globalFilteringFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  filteredRowModel: createFilteredRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
  sortFns: { basic: sortFn_basic },
});

const NO_ROWS: never[] = [];

export function DataTable<T extends RowData>({
  caption,
  columns,
  rows,
  rowKey,
  status = IN_HAND,
  empty,
  emptyAction,
  noun,
  testId,
  searchLabel,
  csvName,
  toolbar,
  layout = 'table',
  pageSize = 20,
  initialSort,
  server,
  showCaption = false,
  rowProps,
}: {
  /** Names the table for screen readers (and on screen with showCaption). */
  caption: string;
  columns: DataColumn<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** The query behind the rows (loading and error views); leave out for rows already in hand. */
  status?: Status;
  /** What an empty list says (after a search: "No … match this search." is added). */
  empty: ReactNode;
  /** The one next step an empty list offers (a link, a form), shown under `empty`; never after a search. */
  emptyAction?: ReactNode;
  /** The counted thing, singular and plural: ['member', 'members']. */
  noun: readonly [string, string];
  testId?: string;
  /** Shows the search box with this label. */
  searchLabel?: string;
  /** Client mode: shows "Export CSV", saving `<csvName>.csv`. */
  csvName?: string;
  /** Filters and actions shown beside the search box. */
  toolbar?: ReactNode;
  layout?: 'table' | 'stacked';
  pageSize?: number;
  initialSort?: { id: string; desc: boolean };
  server?: ServerPaging;
  showCaption?: boolean;
  /** Extra attributes per row (data-* for tests, a class for a row's state). */
  rowProps?: (row: T) => Record<string, string | undefined>;
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSort ? [initialSort] : []);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize });
  const [globalFilter, setGlobalFilter] = useState('');
  const [searchDraft, setSearchDraft] = useState(server?.search ?? '');
  const serverSearch = server?.search;
  useEffect(() => setSearchDraft(serverSearch ?? ''), [serverSearch]);

  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const columnDefs = useMemo<ColumnDef<typeof features, T>[]>(
    () =>
      columns
        .filter((c) => !c.csvOnly)
        .map((c) => ({
          id: c.id,
          header: c.header,
          accessorFn: (row: T) => c.sortValue?.(row) ?? c.searchText?.(row) ?? '',
          cell: (ctx) => c.cell(ctx.row.original),
          enableSorting: Boolean(c.sortValue),
          enableGlobalFilter: Boolean(c.searchText),
          sortDescFirst: Boolean(c.descFirst),
          sortFn: 'basic',
        })),
    [columns],
  );

  const table = useTable({
    features,
    columns: columnDefs,
    data: rows ?? NO_ROWS,
    getRowId: (row) => rowKey(row),
    state: server
      ? { sorting: server.sort ? [server.sort] : [], pagination: { pageIndex: server.page - 1, pageSize } }
      : { sorting, pagination, globalFilter },
    onSortingChange: server
      ? (updater) => {
          const next = typeof updater === 'function' ? updater(server.sort ? [server.sort] : []) : updater;
          const first = next[0];
          if (first) server.onSort?.(first.id, first.desc);
        }
      : setSorting,
    onPaginationChange: setPagination,
    onGlobalFilterChange: setGlobalFilter,
    globalFilterFn: (row, columnId, value: string) =>
      (byId.get(columnId)?.searchText?.(row.original) ?? '').toLowerCase().includes(value.toLowerCase()),
    manualSorting: Boolean(server),
    manualPagination: Boolean(server),
    manualFiltering: Boolean(server),
    enableSortingRemoval: false,
    rowCount: server?.total,
  });

  const shown = table.getRowModel().rows;
  const matching = server ? server.total : table.getFilteredRowModel().rows.length;
  const page = server ? server.page : pagination.pageIndex + 1;
  const pages = server ? server.pages : Math.max(1, table.getPageCount());
  const searching = Boolean(server ? server.search : globalFilter);

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const text = searchDraft.trim();
    if (server) server.onSearch?.(text);
    else {
      setGlobalFilter(text);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    }
  };

  const downloadCsv = () => {
    const csvColumns = columns.filter((c) => c.csv);
    const ordered = table.getSortedRowModel().rows.filter((r) => table.getFilteredRowModel().rowsById[r.id]);
    const body = csvDocument(
      csvColumns.map((c) => c.header),
      ordered.map((r) => csvColumns.map((c) => c.csv?.(r.original))),
    );
    const url = URL.createObjectURL(new Blob([body], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${csvName}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const hasRows = Boolean(rows && rows.length > 0);
  const showTools = Boolean(searchLabel || toolbar || csvName || server?.csvHref);

  return (
    <div className="data-table stack" data-testid={testId}>
      {showTools ? (
        <div className="table-tools">
          {searchLabel ? (
            <form className="table-search" onSubmit={submitSearch}>
              <label className="field">
                <span>{searchLabel}</span>
                <input
                  type="search"
                  name="search"
                  autoComplete="off"
                  value={searchDraft}
                  onChange={(e) => {
                    setSearchDraft(e.target.value);
                    // Client mode filters as the admin types; the server is asked on submit only.
                    if (!server) {
                      setGlobalFilter(e.target.value.trim());
                      setPagination((p) => ({ ...p, pageIndex: 0 }));
                    }
                  }}
                />
              </label>
              <button type="submit" className="button">
                Search
              </button>
            </form>
          ) : null}
          {toolbar}
          {server?.csvHref ? (
            <a className="button" href={server.csvHref} download data-testid="export-csv">
              Export CSV
            </a>
          ) : csvName ? (
            <button
              type="button"
              className="button"
              onClick={downloadCsv}
              disabled={!hasRows}
              data-testid="export-csv"
            >
              Export CSV
            </button>
          ) : null}
        </div>
      ) : null}
      {status.isPending ? (
        <Spinner label={`Loading ${noun[1]}`} />
      ) : status.error ? (
        <QueryError error={status.error} onRetry={() => status.refetch()} />
      ) : !hasRows || shown.length === 0 ? (
        <>
          <p className="muted table-empty" data-testid={testId ? `${testId}-empty` : undefined}>
            {searching ? `No ${noun[1]} match this search.` : empty}
          </p>
          {searching ? null : emptyAction}
        </>
      ) : (
        <>
          <div className="table-scroll" aria-busy={status.isFetching ?? false}>
            <table className={`table${layout === 'stacked' ? ' stacked' : ''}`}>
              <caption className={showCaption ? 'table-caption' : 'visually-hidden'}>{caption}</caption>
              <thead>
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const column = byId.get(header.column.id);
                      const sortable = server
                        ? Boolean(server.onSort && column?.sortValue)
                        : column?.sortValue;
                      const sorted = header.column.getIsSorted();
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          className={column?.className}
                          aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                        >
                          {sortable ? (
                            <button
                              type="button"
                              className="sort-button"
                              aria-pressed={Boolean(sorted)}
                              onClick={header.column.getToggleSortingHandler()}
                            >
                              {column?.header}
                              <span aria-hidden="true">{sorted ? (sorted === 'asc' ? '▲' : '▼') : '↕'}</span>
                            </button>
                          ) : (
                            column?.header
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr key={row.id} {...rowProps?.(row.original)}>
                    {row.getAllCells().map((cell) => {
                      const column = byId.get(cell.column.id);
                      return (
                        <td key={cell.id} className={column?.className} data-label={column?.header}>
                          {column?.cell(row.original)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 || server ? (
            <Pager
              label={`Pages of ${noun[1]}`}
              page={page}
              pages={pages}
              total={matching}
              noun={noun}
              onPage={(next) => (server ? server.onPage(next) : table.setPageIndex(next - 1))}
              testId={testId ? `${testId}-page` : undefined}
            />
          ) : null}
        </>
      )}
    </div>
  );
}
