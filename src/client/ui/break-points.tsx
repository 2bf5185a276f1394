import { Fragment } from 'react';

/**
 * An e-mail address (or any dotted name) that may wrap only at its natural joints: after "@" and
 * before each "." or "_". Narrow table columns then break "ada.lovelace@example.com" as
 * "ada.lovelace@ / example.com", never mid-word.
 */
export function BreakPoints({ text }: { text: string }) {
  const parts = text.split(/(?=[._])|(?<=@)/);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered.
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

const LONG_WORD = 24;
const PART = 16;

/**
 * Text that may hold a long machine word (a 66-character transaction hash in a notification): such a
 * word may wrap between parts of 16 characters, so it fits a table column without the browser breaking
 * it anywhere (or widening the table); every other word stays whole.
 */
export function LongWordBreaks({ text }: { text: string }) {
  const pieces = text.split(/(\s+)/).flatMap((piece) => {
    if (piece.length <= LONG_WORD || /\s/.test(piece)) return [piece];
    const parts: string[] = [];
    for (let at = 0; at < piece.length; at += PART) parts.push(piece.slice(at, at + PART));
    return parts.map((part, index) => (index === 0 ? part : { part }));
  });
  return (
    <>
      {pieces.map((piece, index) =>
        typeof piece === 'string' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, never reordered.
          <Fragment key={index}>{piece}</Fragment>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, never reordered.
          <Fragment key={index}>
            <wbr />
            {piece.part}
          </Fragment>
        ),
      )}
    </>
  );
}
