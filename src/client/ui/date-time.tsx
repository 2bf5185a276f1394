import { formatDateTime } from '../lib/format.ts';

/**
 * A date and time that wraps only between the date and the time ("Mar 5, 2025," / "10:32 AM"), so a
 * narrow table column never breaks inside either; its text is the one formatDateTime gives.
 */
export function DateTime({ iso }: { iso: string | null }) {
  const text = formatDateTime(iso);
  const cut = text.lastIndexOf(', ');
  if (cut < 0) return <span className="nowrap">{text}</span>;
  return (
    <>
      <span className="nowrap">{text.slice(0, cut + 1)}</span>{' '}
      <span className="nowrap">{text.slice(cut + 2)}</span>
    </>
  );
}
