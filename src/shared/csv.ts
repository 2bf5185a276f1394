// CSV as spreadsheets read it, for the server's exports and the tables' "Export CSV" alike.

/**
 * One cell: RFC 4180 quoting, and a spreadsheet program runs a cell starting with =, +, - or @ as a
 * formula (OWASP "CSV injection"), so such a cell gets a leading apostrophe, unless it is a plain
 * number such as a phone number or an amount.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole file: the header line, then one line per row, CRLF line ends. The byte-order mark tells
 * spreadsheet programs the file is UTF-8, so names with accents stay readable.
 */
export function csvDocument(
  header: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
