import { type SelfTradeSaved, TRADE_MESSAGES, type TradePair } from '../../../shared/trade.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { findMemberPair, updateMemberPair } from './trade.repository.ts';

// Self-trade (docs/rules.md "Self-trade"): the pair a member trades themselves, saved on their row. A
// member sets their own only (another id is a 404, as if it did not exist); an admin sets any member's,
// and that change is audited like every admin change to a member. No money moves, no order is placed.

/**
 * PUT /referral/self-trade/{userId}?pair=: saves the pair. The same pair again writes nothing (the time
 * it was chosen stays, and an admin's repeat leaves no audit entry).
 */
export async function saveSelfTrade(
  db: Db,
  asker: SessionUser,
  userId: string,
  pair: TradePair,
): Promise<SelfTradeSaved> {
  const isAdmin = asker.user.role === 'admin';
  if (!isAdmin && asker.user.id !== userId) throw notFound(TRADE_MESSAGES.noMember);
  return db.transaction().execute(async (trx) => {
    const member = await findMemberPair(trx, userId);
    if (!member) throw notFound(TRADE_MESSAGES.noMember);
    if (member.self_trade_pair === pair && member.self_trade_updated_at)
      return { message: TRADE_MESSAGES.saved, pair, updated_at: member.self_trade_updated_at };
    const now = new Date().toISOString();
    await updateMemberPair(trx, userId, pair, now);
    if (isAdmin)
      await insertAudit(trx, {
        actorId: asker.user.id,
        action: 'user.self_trade',
        targetType: 'user',
        targetId: userId,
        before: { self_trade_pair: member.self_trade_pair },
        after: { self_trade_pair: pair },
      });
    return { message: TRADE_MESSAGES.saved, pair, updated_at: now };
  });
}
