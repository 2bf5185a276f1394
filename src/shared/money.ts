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

// What people read: one format for each kind of figure, on every screen, message and e-mail. The wire
// format above stays as API.md fixes it; these only turn it (or cents) into text.

/** The one minus sign of every figure shown (U+2212, read as "minus"), never the hyphen. */
export const MINUS = '\u2212';

/** `always` writes "+" before a figure above zero (money in); `negative` signs only what is below zero. */
export type SignStyle = 'negative' | 'always';

/** "1234567" -> "1,234,567": digits of any length, grouped without a number in between. */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const signOf = (negative: boolean, zero: boolean, style: SignStyle) =>
  negative ? MINUS : style === 'always' && !zero ? '+' : '';

const MONEY_TEXT = /^([-\u2212+]?)(\d+)\.(\d{2})$/;

/**
 * Dollars: integer cents (number or bigint) or the API's money string ("1500.00", "-2.50") ->
 * "$1,500.00", "−$2.50", "+$2.50" with `always`. Exact at any size: never through a float. A string
 * that is not a money amount is shown as it came rather than as a wrong figure.
 */
export function formatUsd(amount: number | bigint | string, sign: SignStyle = 'negative'): string {
  let negative: boolean;
  let whole: string;
  let cents: string;
  if (typeof amount === 'string') {
    const match = MONEY_TEXT.exec(amount.trim());
    if (!match) return amount;
    negative = match[1] === '-' || match[1] === MINUS;
    whole = String(BigInt(match[2] ?? '0'));
    cents = match[3] ?? '00';
  } else {
    if (typeof amount === 'number' && !Number.isSafeInteger(amount))
      throw new RangeError(`not an integer amount of cents: ${amount}`);
    const big = BigInt(amount);
    negative = big < 0n;
    const abs = negative ? -big : big;
    whole = String(abs / 100n);
    cents = String(abs % 100n).padStart(2, '0');
  }
  const zero = /^0+$/.test(whole) && cents === '00';
  return `${signOf(negative && !zero, zero, sign)}$${grouped(whole)}.${cents}`;
}

const DECIMAL_TEXT = /^([-\u2212+]?)(\d+)(?:\.(\d+))?$/;

/** "1234.50" -> { negative: false, whole: "1,234", fraction: "50" }, or null for what is not a decimal. */
function decimalParts(text: string) {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return null;
  const whole = String(BigInt(match[2] ?? '0'));
  const fraction = match[3] ?? '';
  const zero = whole === '0' && /^0*$/.test(fraction);
  return {
    negative: (match[1] === '-' || match[1] === MINUS) && !zero,
    zero,
    whole: grouped(whole),
    fraction,
  };
}

/**
 * A USDT amount as the chain or the payment provider gives it ("12345.5", up to 18 decimals) ->
 * "12,345.5 USDT": thousands grouped, its decimals as they came (a coin amount is exact, not rounded
 * to cents). `unit` names the coin in full where a screen must ("USDT (BEP20, BNB Smart Chain)").
 */
export function formatUsdt(amount: string, unit = 'USDT'): string {
  const parts = decimalParts(amount);
  if (!parts) return `${amount} ${unit}`;
  const number = parts.fraction ? `${parts.whole}.${parts.fraction}` : parts.whole;
  return `${parts.negative ? MINUS : ''}${number} ${unit}`;
}

/**
 * Percents: the server's decimal string ("1.50", "12.5") or a number -> "1.5%", "12.5%", "5%":
 * at most two decimals, no trailing zeros, no space, thousands grouped, "+" before a rise with `always`.
 */
export function formatPercent(value: string | number, sign: SignStyle = 'negative'): string {
  // A number (a trend worked out on the client) is rounded to two decimals first; it is never money.
  const text = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(2) : '') : value;
  const parts = decimalParts(text);
  if (!parts) return `${value}%`;
  const fraction = parts.fraction.slice(0, 2).replace(/0+$/, '');
  const number = fraction ? `${parts.whole}.${fraction}` : parts.whole;
  return `${signOf(parts.negative, parts.zero, sign)}${number}%`;
}
