import { formatCents } from '../../../shared/money.ts';
import {
  REWARD_MESSAGES as M,
  type MemberRewardRow,
  type MemberRewards,
  REWARDS_LINK,
  type RewardReminderInput,
  type UnclaimedRewards,
} from '../../../shared/rewards.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { existingMemberIds } from '../notifications/notifications.repository.ts';
import { notifyMembers } from '../notifications/notifications.service.ts';
import { membersWithBusiness } from '../team/team.repository.ts';
import { claimedRewardIds, listRewardPlans } from './rewards.repository.ts';
import { memberRewards } from './rewards.service.ts';

// Reward reminders (docs/rules.md "Reward reminders"): who reached a reward and has not claimed it
// (the spec's "defaulter"), for the member and for admins, and an admin's reminder to claim, sent as an
// ordinary notification. Nothing here moves money: the member still claims on the Rewards screen.

function adminOnly(asker: SessionUser) {
  if (asker.user.role !== 'admin') throw forbidden();
}

/** Reached and not claimed, from the same ladder GET /rewards/user/{id} shows. */
export const unclaimedOf = (ladder: MemberRewards): UnclaimedRewards => {
  const rewards = ladder.rewards
    .filter((r) => r.reached && !r.claimed)
    .map((r) => ({ id: r.id, rank: r.rank, amount: r.amount, business_needed: r.business_needed }));
  return { rewards, count: rewards.length };
};

/** GET /users/get/defaulterreward/{id}: your own, or anyone's for an admin; another member's id is a 404. */
export async function unclaimedRewards(db: Db, asker: SessionUser, id: string): Promise<UnclaimedRewards> {
  return unclaimedOf(await memberRewards(db, asker, id));
}

/**
 * Every member whose team business reaches the ladder's first rung (team business from the team
 * module's membersWithBusiness, highest first), with what they reached and claimed.
 */
async function standings(db: Db): Promise<MemberRewardRow[]> {
  const ladder = await listRewardPlans(db);
  const floor = ladder[0];
  if (!floor) return [];
  const holders = await membersWithBusiness(db, Number(floor.business_needed_cents));
  const claimed = await claimedRewardIds(
    db,
    holders.map((h) => h.id),
  );
  return holders.map((h) => {
    const reached = ladder.filter((plan) => h.business >= Number(plan.business_needed_cents));
    const mine = claimed.get(h.id) ?? new Set<string>();
    const open = reached.filter((plan) => !mine.has(plan.id));
    return {
      id: h.id,
      username: h.username,
      fullname: h.fullname,
      team_business: formatCents(h.business),
      reached: reached.length,
      claimed: mine.size,
      unclaimed: open.length,
      unclaimed_ranks: open.map((plan) => plan.rank),
    };
  });
}

/** GET /users/rewards (admin). */
export async function membersAndRewards(db: Db, admin: SessionUser): Promise<{ members: MemberRewardRow[] }> {
  adminOnly(admin);
  return { members: await standings(db) };
}

/** POST /users/send/reward (admin): one notification per member with a reward to claim. */
export async function sendRewardReminders(
  db: Db,
  admin: SessionUser,
  input: RewardReminderInput,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  adminOnly(admin);
  const chosen = input.user_ids === undefined ? undefined : [...new Set(input.user_ids)];
  return runOnce(db, admin.user.id, idempotencyKey, { route: 'reward-remind', chosen }, async (trx) => {
    if (chosen !== undefined) {
      const members = await existingMemberIds(trx, chosen);
      if (chosen.some((id) => !members.has(id)))
        throw badRequest([{ field: 'user_ids', message: M.userIdsUnknown }]);
    }
    const wanted = chosen === undefined ? undefined : new Set(chosen);
    const due = (await standings(trx)).filter(
      (m) => m.unclaimed > 0 && (wanted === undefined || wanted.has(m.id)),
    );
    for (const m of due)
      await notifyMembers(trx, {
        recipientIds: [m.id],
        title: M.reminderTitle,
        message: M.reminder(m.unclaimed_ranks),
        createdBy: admin.user.id,
        link: REWARDS_LINK,
      });
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'reward.remind',
      targetType: 'reward',
      targetId: 'reminders',
      after: { sent: due.length, members: due.map((m) => ({ id: m.id, ranks: m.unclaimed_ranks })) },
    });
    return { statusCode: 200, body: { message: M.remindersSent(due.length), sent: due.length } };
  });
}
