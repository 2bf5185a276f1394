import { type ReactNode, useId } from 'react';
import { createPortal } from 'react-dom';
import { GLOSSARY, type GlossaryId } from './glossary.ts';

/**
 * A term of art with a "?" beside it that opens its plain definition from the glossary. A popover (the
 * browser's own: light dismiss, Escape, the top layer), so it costs no script and fits a 360 px screen.
 * The definition is kept at the end of the page, so the text around the term reads as before.
 */
export function Term({ id, children }: { id: GlossaryId; children?: ReactNode }) {
  const popoverId = useId();
  const { term, definition } = GLOSSARY[id];
  return (
    <span className="term">
      {children ?? term}
      {/* Its "?" is drawn by CSS: the text around the term reads as it did, here and in a copy. */}
      <button type="button" className="term-help" popoverTarget={popoverId} aria-label={`What is ${term}?`} />
      {createPortal(
        <div id={popoverId} popover="auto" className="term-definition card" role="note" aria-label={term}>
          <strong>{term}</strong>
          <p>{definition}</p>
          <button type="button" className="button" popoverTarget={popoverId} popoverTargetAction="hide">
            Close
          </button>
        </div>,
        document.body,
      )}
    </span>
  );
}
