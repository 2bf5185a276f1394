/** Previous and Next under a paged table, between them "Page 2 of 5 (93 members)". */
export function Pager({
  label,
  page,
  pages,
  total,
  noun,
  onPage,
  testId,
}: {
  /** What the pages are of, for screen readers: "Pages of members". */
  label: string;
  page: number;
  pages: number;
  total: number;
  /** The counted thing, singular and plural: ['member', 'members']. */
  noun: readonly [string, string];
  onPage: (page: number) => void;
  testId?: string;
}) {
  return (
    <nav className="row pager" aria-label={label}>
      <button type="button" className="button small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="muted" data-testid={testId}>
        Page {page} of {pages} ({total} {total === 1 ? noun[0] : noun[1]})
      </span>
      <button
        type="button"
        className="button small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
