import { useEffect, useRef, useState } from 'react';
import { COPIED_LABEL_MS } from '../../../../shared/constants.ts';
import { PAYMENT_MESSAGES } from '../../../../shared/payments.ts';

/**
 * Spec 2: copies the address, says so in an alert, then reads "Copied!" for 2 s. Without clipboard
 * access (an old browser, a refused permission) it says how to copy by hand instead.
 */
export function CopyAddressButton({ address }: { address: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
    } catch {
      setFailed(true);
      return;
    }
    setFailed(false);
    window.alert(PAYMENT_MESSAGES.copied);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_LABEL_MS);
  }

  return (
    <>
      <button type="button" className="button" onClick={copy} aria-live="polite">
        {copied ? PAYMENT_MESSAGES.copiedLabel : PAYMENT_MESSAGES.copyAddress}
      </button>
      {failed ? (
        <p className="field-error" role="alert">
          The address could not be copied. Select it above and copy it by hand.
        </p>
      ) : null}
    </>
  );
}
