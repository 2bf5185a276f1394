import * as v from 'valibot';

// Self-trade (issue 17, docs/rules.md "Self-trade"): the market pair a member trades on their own and
// follows in the app, e.g. BTC/USDT. The product teaches trading; this choice moves no money and places
// no order. Pairs travel as the exchange symbol (`BTCUSDT`), upper-case, and are shown as `BTC/USDT`.

/** The pairs a member can choose, base then quote; the first is the default in the form. */
export const TRADE_PAIRS = [
  'BTCUSDT',
  'ETHUSDT',
  'BNBUSDT',
  'SOLUSDT',
  'XRPUSDT',
  'ADAUSDT',
  'DOGEUSDT',
  'TRXUSDT',
] as const;
export type TradePair = (typeof TRADE_PAIRS)[number];

const QUOTE = 'USDT';

/** `BTCUSDT` -> `BTC/USDT`; none chosen yet (or a session kept from before pairs existed) -> null. */
export function pairLabel(pair: string | null | undefined): string | null {
  if (!pair) return null;
  return pair.endsWith(QUOTE) ? `${pair.slice(0, -QUOTE.length)}/${QUOTE}` : pair;
}

export const TRADE_MESSAGES = {
  saved: 'Trading pair saved',
  pairUnknown: `Choose one of the pairs: ${TRADE_PAIRS.map((p) => pairLabel(p)).join(', ')}`,
  noMember: 'No member with this id',
} as const;

export const TRADE_TEXT = {
  title: 'Trading pair',
  intro:
    'The market pair you trade yourself and follow here. Choosing one places no order and moves no money.',
  current: 'Current pair',
  chosen: 'Chosen',
  none: 'None chosen yet',
  pair: 'Pair',
  save: 'Save',
  saving: 'Saving...',
} as const;

/** `pair` in any case, surrounding spaces ignored; stored upper-case. */
export const selfTradeQuerySchema = v.object({
  pair: v.pipe(
    v.string(TRADE_MESSAGES.pairUnknown),
    v.trim(),
    v.toUpperCase(),
    v.picklist(TRADE_PAIRS, TRADE_MESSAGES.pairUnknown),
  ),
});
export type SelfTradeQuery = v.InferOutput<typeof selfTradeQuerySchema>;

export const selfTradeParamsSchema = v.object({
  userId: v.pipe(v.string(), v.trim(), v.nonEmpty(TRADE_MESSAGES.noMember)),
});

/** PUT /referral/self-trade/{userId}?pair= answers the saved pair and when it was saved. */
export const selfTradeSavedSchema = v.object({
  message: v.string(),
  pair: v.picklist(TRADE_PAIRS),
  updated_at: v.string(),
});
export type SelfTradeSaved = v.InferOutput<typeof selfTradeSavedSchema>;
