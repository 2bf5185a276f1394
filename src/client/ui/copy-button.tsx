import { useEffect, useRef, useState } from 'react';
import { COPIED_LABEL_MS } from '../../shared/constants.ts';

/**
 * Copies a value to the clipboard and says so on the button for 2 s (the specification's "Copied!" label time). Without
 * clipboard access (an old browser, a refused permission) `failed` is set, so the screen can say how to
 * copy by hand. `onCopied` runs after a copy (the payment page's alert).
 */
export function useCopy(value: string, onCopied?: () => void) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      setFailed(true);
      return;
    }
    setFailed(false);
    onCopied?.();
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_LABEL_MS);
  }
  return { copy, copied, failed };
}

/**
 * A Copy button for a whole value a screen may show shortened (an address, a hash, a link). `what`
 * names it for screen readers ("Copy transaction hash"), where several Copy buttons share a screen.
 */
export function CopyButton({ text, label, what }: { text: string; label: string; what?: string }) {
  const { copy, copied, failed } = useCopy(text);
  return (
    <>
      <button
        type="button"
        className="button small"
        onClick={copy}
        aria-label={what && !copied ? `${label} ${what}` : undefined}
        aria-live="polite"
      >
        {copied ? 'Copied' : label}
      </button>
      {failed ? (
        <span className="field-error" role="alert">
          Could not copy. Select the text and copy it by hand.
        </span>
      ) : null}
    </>
  );
}
