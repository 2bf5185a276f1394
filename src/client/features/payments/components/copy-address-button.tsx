import { PAYMENT_MESSAGES } from '../../../../shared/payments.ts';
import { useCopy } from '../../../ui/copy-button.tsx';

/**
 * Spec 2: copies the address, says so in an alert, then reads "Copied!" for 2 s. Without clipboard
 * access (an old browser, a refused permission) it says how to copy by hand instead.
 */
export function CopyAddressButton({ address }: { address: string }) {
  const { copy, copied, failed } = useCopy(address, () => window.alert(PAYMENT_MESSAGES.copied));
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
