import type { SelfTradeSaved, TradePair } from '../../../shared/trade.ts';
import { api } from '../../lib/http.ts';

// Self-trade (docs/api.md "Self-trade"): the member saves the pair they trade themselves; the current
// pair is read from the session's `auth` object, which the route hands in.

export const saveSelfTrade = (memberId: string, pair: TradePair) =>
  api<SelfTradeSaved>(
    'PUT',
    `/referral/self-trade/${encodeURIComponent(memberId)}?pair=${encodeURIComponent(pair)}`,
  );
