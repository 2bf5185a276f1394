import { type FormEvent, useState } from 'react';
import {
  pairLabel,
  type SelfTradeSaved,
  selfTradeQuerySchema,
  TRADE_PAIRS,
  TRADE_TEXT,
} from '../../../../shared/trade.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { SelectField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { Term } from '../../../ui/term.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { saveSelfTrade } from '../api.ts';

/**
 * The profile's "Trading pair" card: the pair the member trades themselves, and a select to choose
 * another at any time. `onSaved` hands the saved pair to the route, which keeps the session.
 */
export function SelfTradeCard({
  memberId,
  pair,
  updatedAt,
  onSaved,
}: {
  memberId: string;
  pair: string | null;
  updatedAt: string | null;
  onSaved: (saved: SelfTradeSaved) => void;
}) {
  const [chosen, setChosen] = useState<string>(pair ?? TRADE_PAIRS[0]);
  const { errors, busy, submit } = useSchemaForm();
  const banner = useAutoClearBanner();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      selfTradeQuerySchema,
      { pair: chosen },
      async (input) => {
        const saved = await saveSelfTrade(memberId, input.pair);
        onSaved(saved);
        banner.success(saved.message);
      },
      banner.error,
    );
  }

  return (
    <section className="card" aria-labelledby="self-trade-title">
      <h2 id="self-trade-title">{TRADE_TEXT.title}</h2>
      <p>
        {TRADE_TEXT.intro} <Term id="tradingPair">What a trading pair is</Term>
      </p>
      <dl className="facts">
        <div>
          <dt>{TRADE_TEXT.current}</dt>
          <dd data-testid="self-trade-current">{pairLabel(pair) ?? TRADE_TEXT.none}</dd>
        </div>
        {updatedAt ? (
          <div>
            <dt>{TRADE_TEXT.chosen}</dt>
            <dd>{formatDateTime(updatedAt)}</dd>
          </div>
        ) : null}
      </dl>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <SelectField
          label={TRADE_TEXT.pair}
          name="pair"
          value={chosen}
          error={errors.pair}
          disabled={busy}
          onChange={(e) => setChosen(e.target.value)}
        >
          {TRADE_PAIRS.map((p) => (
            <option key={p} value={p}>
              {pairLabel(p)}
            </option>
          ))}
        </SelectField>
        <MessageBanner banner={banner.banner} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? TRADE_TEXT.saving : TRADE_TEXT.save}
          </button>
        </div>
      </form>
    </section>
  );
}
