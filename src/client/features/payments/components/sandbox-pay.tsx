import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import {
  amountToSend,
  coinAmount,
  PAY_COIN_LABEL,
  type Payment,
  sandboxPaySchema,
} from '../../../../shared/payments.ts';
import { errorText } from '../../../lib/http.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { halfOf, simulateSandboxPay } from '../api.ts';

/**
 * With the sandbox provider nothing is sent on any chain: these buttons play the payer, so the status
 * walk (and the Active Wallet credit at the end) can be seen without real money. The full transfer is
 * the amount the screen asks for ("Send exactly X"), nothing else.
 */
export function SandboxPay({ payment, onPaid }: { payment: Payment; onPaid: (payment: Payment) => void }) {
  const toSend = amountToSend(payment);
  const [part, setPart] = useState(() => halfOf(toSend));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [fieldError, setFieldError] = useState('');

  async function pay(amount?: string) {
    setBusy(true);
    setError('');
    try {
      onPaid(await simulateSandboxPay(payment.payment_id, amount));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  function payPart(event: FormEvent) {
    event.preventDefault();
    const parsed = v.safeParse(sandboxPaySchema, { amount: part });
    if (!parsed.success || parsed.output.amount === undefined) {
      setFieldError(parsed.success ? 'Enter an amount' : parsed.issues[0].message);
      return;
    }
    setFieldError('');
    void pay(parsed.output.amount);
  }

  return (
    <section className="card sandbox" aria-labelledby="sandbox-title" data-testid="sandbox">
      <h2 id="sandbox-title">Simulate payment (sandbox)</h2>
      <p>
        This payment uses the sandbox provider: no real money moves and nothing is sent on any blockchain.
        Play the payer here to watch the status change.
      </p>
      <button type="button" className="button primary" onClick={() => pay()} disabled={busy}>
        {payment.payment_status === 'partially_paid'
          ? `Pay the rest: ${coinAmount(toSend)}`
          : `Pay the full amount: ${coinAmount(toSend)}`}
      </button>
      <form className="form sandbox-part" onSubmit={payPart} noValidate>
        <FormField
          label={`Part to pay, in ${PAY_COIN_LABEL}`}
          name="sandbox_amount"
          inputMode="decimal"
          autoComplete="off"
          value={part}
          onChange={(e) => setPart(e.target.value)}
          error={fieldError}
          hint="Less than the amount to send ends as partially paid"
          disabled={busy}
        />
        <button type="submit" className="button" disabled={busy}>
          Pay this part
        </button>
      </form>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
