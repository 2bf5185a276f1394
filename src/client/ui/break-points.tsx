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

/** A word's parts: after each "-" or "/" and before each "_" (its own joints), then 16 characters at most each when the word is long. */
function partsOf(word: string): string[] {
  const joints = word.split(/(?<=[-/])|(?=_)/).filter(Boolean);
  if (word.length <= LONG_WORD) return joints;
  return joints.flatMap((joint) => {
    if (joint.length <= PART) return [joint];
    const parts: string[] = [];
    for (let at = 0; at < joint.length; at += PART) parts.push(joint.slice(at, at + PART));
    return parts;
  });
}

/**
 * Text that may hold a long machine word (a 66-character transaction hash in a notification, a pasted
 * link, a 30-character username): such a word may wrap at its joints (after "-" and "/", before "_")
 * and, when long, between parts of 16 characters, so it fits a table column without the browser
 * breaking it anywhere else (or widening the table); every other word stays whole.
 */
export function LongWordBreaks({ text }: { text: string }) {
  const pieces = text.split(/(\s+)/).flatMap((piece) => {
    if (/\s/.test(piece)) return [piece];
    return partsOf(piece).map((part, index) => (index === 0 ? part : { part }));
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
