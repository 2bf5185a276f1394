import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import {
  coinAmount,
  createPaymentSchema,
  cryptoUnits,
  PAY_COIN_LABEL,
  PAY_CURRENCY,
  PAYMENT_MESSAGES,
  type Payment,
  PRICE_CURRENCY,
  payAmountFor,
} from '../../../../shared/payments.ts';
import { errorText } from '../../../lib/http.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { createPayment, currenciesQuery, minAmountQuery, offeredCurrencies } from '../api.ts';

/** The provider's minimum (a coin amount, 1 USDT counted as 1 USD) in dollars, rounded up to the cent: never shown below itself. */
function minimumText(minimum: number): string | undefined {
  const units = cryptoUnits(String(minimum));
  if (units === null) return undefined;
  return `Minimum: ${formatUsd((units + UNITS_PER_CENT - 1n) / UNITS_PER_CENT)}`;
}
const UNITS_PER_CENT = 1_000_000n;

/** Before creating: what the member will send and what reaches the Active Wallet, for a valid amount. */
function preview(amount: string): string | null {
  const cents = parseCents(amount);
  if (cents === null || cents <= 0) return null;
  return `You send ${coinAmount(payAmountFor(amount))}; ${formatUsd(cents)} is credited to your Active Wallet.`;
}

/** Spec 2 "Crypto payment page": the deposit in US dollars and the coin to pay with. */
export function PaymentForm({
  memberId,
  onCreated,
}: {
  memberId: string;
  onCreated: (payment: Payment) => void;
}) {
  const currencies = useQuery(currenciesQuery);
  const offered = offeredCurrencies(currencies.data);
  const minimum = useQuery(minAmountQuery(PAY_CURRENCY, PAY_CURRENCY)).data?.min_amount;
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<string>(PRICE_CURRENCY);
  // The only coin offered is chosen for the member once the list arrives; they may still clear it.
  const [payCurrency, setPayCurrency] = useState<string | undefined>(undefined);
  const payWith = payCurrency ?? offered[0]?.code ?? '';
  const { errors, busy, submit: submitWith } = useSchemaForm();
  const { offline } = useOffline();
  const [failure, setFailure] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (offline) return;
    setFailure('');
    void submitWith(
      createPaymentSchema,
      { price_amount: amount, price_currency: currency, pay_currency: payWith, id: memberId },
      async (input) => onCreated(await createPayment(input, memberId)),
      (text) => setFailure(text || PAYMENT_MESSAGES.createFailed),
    );
  }

  const willSend = preview(amount);
  return (
    <section className="card" aria-labelledby="payment-form-title">
      <h2 id="payment-form-title">{PAYMENT_MESSAGES.newDeposit}</h2>
      {failure ? (
        <div className="banner error" role="alert" data-testid="payment-error">
          <strong>{PAYMENT_MESSAGES.errorTitle}</strong>
          <p>{failure}</p>
        </div>
      ) : null}
      <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <FormField
          label="Amount to deposit (USD)"
          name="price_amount"
          type="number"
          step="0.01"
          min="0"
          inputMode="decimal"
          autoComplete="off"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={errors.price_amount}
          hint={minimum === undefined ? undefined : minimumText(minimum)}
          disabled={busy}
        />
        {willSend ? (
          <p className="muted" data-testid="payment-preview" aria-live="polite">
            {willSend}
          </p>
        ) : null}
        <SelectField
          label="Currency"
          name="price_currency"
          required
          value={currency}
          onChange={(e) => setCurrency(e.target.value)}
          error={errors.price_currency}
          disabled={busy}
        >
          <option value={PRICE_CURRENCY}>USD</option>
        </SelectField>
        <SelectField
          label="Pay with"
          name="pay_currency"
          required
          value={payWith}
          onChange={(e) => setPayCurrency(e.target.value)}
          error={errors.pay_currency}
          disabled={busy}
        >
          <option value="">Select cryptocurrency</option>
          {offered.map((c) => (
            <option key={c.code} value={c.code}>
              {PAY_COIN_LABEL}
            </option>
          ))}
        </SelectField>
        {currencies.error ? (
          <p className="field-error" role="alert" data-testid="currencies-error">
            {errorText(currencies.error)}
          </p>
        ) : null}
        <MoneyOfflineNote />
        <button type="submit" className="button primary" disabled={busy || offline}>
          {busy ? PAYMENT_MESSAGES.processing : PAYMENT_MESSAGES.create}
        </button>
      </form>
    </section>
  );
}
