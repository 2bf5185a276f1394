// Spec 9: money in US dollars, dates en-US with hour and minute, everywhere.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** "1250.00" (the API's money string) -> "$1,250.00". The string is split, never turned into a float. */
export function formatMoney(amount: string): string {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
  if (!match) return amount;
  const [, sign, whole = '0', cents] = match;
  return `${sign}${usd.format(Number(whole)).replace(/\.00$/, '')}.${cents}`;
}

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTime.format(new Date(iso)) : '—';
