import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument } from './csv.ts';

// Every CSV we write (members export, tables' Export CSV): RFC 4180 quoting, and no cell a spreadsheet would run as a formula (OWASP "CSV injection").
describe('csvCell', () => {
  it('leaves plain text, numbers and phone numbers as they are', () => {
    expect(csvCell('Ada Lovelace')).toBe('Ada Lovelace');
    expect(csvCell('1250.00')).toBe('1250.00');
    expect(csvCell('+447700900123')).toBe('+447700900123');
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell(null)).toBe('');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('Smith, John')).toBe('"Smith, John"');
    expect(csvCell('The "Boss"')).toBe('"The ""Boss"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it.each(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTAB', '=HYPERLINK("http://x","y")'])(
    'defuses %j with a leading apostrophe',
    (value) => {
      const cell = csvCell(value);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
      expect(unquoted).toBe(`'${value}`);
    },
  );
});

describe('csvDocument', () => {
  it('writes a byte-order mark, the header and one CRLF line per row, every cell defused', () => {
    expect(
      csvDocument(
        ['Name', 'Amount'],
        [
          ['Ada', '10.00'],
          ['=cmd', 5],
        ],
      ),
    ).toBe("\uFEFFName,Amount\r\nAda,10.00\r\n'=cmd,5\r\n");
  });
});
