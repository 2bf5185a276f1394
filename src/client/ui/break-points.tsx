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
