// Money is integer cents everywhere (RULES.md "Money"). These convert at the edges only.

const DECIMAL_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** Parses "12", "12.5", "12.50" or 12.5 into cents; null when it is not a non-negative amount with at most 2 decimals. */
export function parseCents(input: string | number): number | null {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim();
  if (!DECIMAL_PATTERN.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** 125000 -> "1250.00", the API's money format. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer amount of cents: ${cents}`);
  return formatBigCents(BigInt(cents));
}

/** formatCents for sums that may pass 2^53 cents (the ledger's reconciliation), exact at any size. */
export function formatBigCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
