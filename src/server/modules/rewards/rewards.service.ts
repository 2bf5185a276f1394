import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatCents } from '../../../shared/money.ts';
import {
  REWARD_MESSAGES as M,
  type MemberRewards,
  type Reward,
  type RewardClaimRow,
  type RewardPlanInput,
  type RewardPlanUpdate,
} from '../../../shared/rewards.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import type { RewardPlanTable } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { type AuditedRows, auditedCreate, auditedDelete, auditedUpdate } from '../audit/audited.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { teamStats } from '../team/team.repository.ts';
import { findUserById } from '../users/users.repository.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import {
  allClaims,
  claimsOf,
  deleteRewardPlan,
  findRewardPlan,
  hasClaims,
  insertClaim,
  insertRewardPlan,
  listRewardPlans,
  updateRewardPlan,
} from './rewards.repository.ts';

// RULES.md "Rewards": a member reaches a rank when their team business (every investment of their
// downline, all levels) is at least its business needed, and claims each reached reward once into
// Income Working, paid from the platform's income account. The claim's unique (member, reward) key is
// the last word: of two racing claims, one insert fails and pays nothing.

export const REWARD_KIND: LedgerKind = 'reward';

const toReward = (row: RewardPlanTable): Reward => ({
  id: row.id,
  rank: row.rank,
  business_needed: formatCents(Number(row.business_needed_cents)),
  amount: formatCents(Number(row.amount_cents)),
  created_at: row.created_at,
});

function adminOnly(asker: SessionUser) {
  if (asker.user.role !== 'admin') throw forbidden();
}

export async function rewardPlans(db: Db) {
  return { rewards: (await listRewardPlans(db)).map(toReward) };
}

/** Reward ranks as the audited admin changes handle them (one transaction with the audit entry each). */
const rewardRows: AuditedRows<RewardPlanTable, Reward> = {
  action: 'reward',
  targetType: 'reward',
  show: toReward,
  find: findRewardPlan,
  insert: insertRewardPlan,
  update: updateRewardPlan,
  remove: deleteRewardPlan,
  inUse: hasClaims,
  messages: {
    notFound: M.notFound,
    taken: M.rankTaken,
    inUse: M.hasClaims,
    nothingToChange: { field: 'rank', message: M.nothingToChange },
  },
};

export async function createRewardPlan(db: Db, admin: SessionUser, input: RewardPlanInput): Promise<Outcome> {
  adminOnly(admin);
  const now = new Date().toISOString();
  const row: RewardPlanTable = {
    id: newId(),
    rank: input.rank,
    business_needed_cents: input.business_needed,
    amount_cents: input.amount,
    created_at: now,
    updated_at: now,
  };
  const reward = await auditedCreate(db, admin, rewardRows, row);
  return { statusCode: 201, body: { message: M.created, reward } };
}

export async function changeRewardPlan(db: Db, admin: SessionUser, id: string, input: RewardPlanUpdate) {
  adminOnly(admin);
  const reward = await auditedUpdate(db, admin, rewardRows, id, {
    rank: input.rank,
    business_needed_cents: input.business_needed,
    amount_cents: input.amount,
  });
  return { message: M.updated, reward };
}

/** A reward nobody has claimed can go; a claimed one stays, for its claims' history (409). */
export async function removeRewardPlan(db: Db, admin: SessionUser, id: string) {
  adminOnly(admin);
  await auditedDelete(db, admin, rewardRows, id);
  return { message: M.deleted };
}

async function memberOr404(db: Db, asker: SessionUser, id: string) {
  if (asker.user.role !== 'admin' && asker.user.id !== id) throw notFound(M.memberNotFound);
  const member = await findUserById(db, id);
  if (member?.role !== 'user') throw notFound(M.memberNotFound);
  return member;
}

async function teamBusinessCents(db: Db, memberId: string): Promise<number> {
  return (await teamStats(db, [memberId])).get(memberId)?.team_business_cents ?? 0;
}

/** GET /rewards/user/{id} (and /rewards/user/claim/{id}): the ladder as the member stands on it. */
export async function memberRewards(db: Db, asker: SessionUser, id: string): Promise<MemberRewards> {
  await memberOr404(db, asker, id);
  const [plans, claims, business] = await Promise.all([
    listRewardPlans(db),
    claimsOf(db, id),
    teamBusinessCents(db, id),
  ]);
  const rewards = plans.map((plan) => {
    const claim = claims.find((c) => c.reward_id === plan.id);
    return {
      ...toReward(plan),
      reached: business >= Number(plan.business_needed_cents),
      claimed: claim !== undefined,
      claimed_at: claim?.created_at ?? null,
    };
  });
  const next = plans.find((plan) => business < Number(plan.business_needed_cents));
  const last = plans.filter((plan) => business >= Number(plan.business_needed_cents)).at(-1);
  return {
    team_business: formatCents(business),
    carried_forward:
      last && next
        ? {
            from_rank: last.rank,
            to_rank: next.rank,
            amount: formatCents(business - Number(last.business_needed_cents)),
          }
        : null,
    rewards,
    next: next
      ? {
          id: next.id,
          rank: next.rank,
          business_left: formatCents(Number(next.business_needed_cents) - business),
        }
      : null,
  };
}

/**
 * PUT /rewards/carry-forward/{id}: the business beyond the member's last reached reward, carried toward
 * the next one (RULES.md "Rewards"). The ladder counts all team business toward every rung, so the
 * carry is already applied and the call moves no money and changes no row: it answers what is carried.
 * Before the first reward and after the last there is nothing to carry (422).
 */
export async function carryForward(db: Db, asker: SessionUser, id: string) {
  const standing = await memberRewards(db, asker, id);
  if (standing.carried_forward === null)
    throw new AppError(
      422,
      standing.rewards.some((r) => r.reached) ? M.carryTopReached : M.carryNothingReached,
    );
  return { message: M.carriedForward, carry_forward: standing.carried_forward };
}

/** POST /rewards/user/claim/{id}: the member claims a reached reward, once (a repeat is a 409). */
export async function claimReward(
  db: Db,
  asker: SessionUser,
  id: string,
  rewardId: string,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (asker.user.role !== 'user' || asker.user.id !== id) throw notFound(M.memberNotFound);
  return runOnce(db, id, idempotencyKey, { route: 'reward-claim', rewardId }, async (trx) => {
    const plan = await findRewardPlan(trx, rewardId);
    if (!plan) throw notFound(M.notFound);
    const business = await teamBusinessCents(trx, id);
    if (business < Number(plan.business_needed_cents)) throw new AppError(422, M.notReached);
    const claimId = newId();
    try {
      await insertClaim(trx, {
        id: claimId,
        user_id: id,
        reward_id: plan.id,
        rank: plan.rank,
        amount_cents: Number(plan.amount_cents),
        team_business_cents: business,
        created_at: new Date().toISOString(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(M.alreadyClaimed);
      throw error;
    }
    await ensureWallets(trx, id);
    await postTransfer(trx, {
      debitAccountId: PLATFORM.income,
      creditAccountId: walletAccountId(id, 'working'),
      amountCents: Number(plan.amount_cents),
      kind: REWARD_KIND,
      reference: `reward:${claimId}`,
      description: `Reward: ${plan.rank}`,
    });
    return { statusCode: 201, body: { message: M.claimed } };
  });
}

/** GET /rewards/claims (admin): every claim, newest first. */
export async function rewardClaims(db: Db, admin: SessionUser): Promise<{ claims: RewardClaimRow[] }> {
  adminOnly(admin);
  return {
    claims: (await allClaims(db)).map((c) => ({
      id: c.id,
      user_id: c.user_id,
      username: c.username,
      fullname: c.fullname,
      reward_id: c.reward_id,
      rank: c.rank,
      amount: formatCents(Number(c.amount_cents)),
      team_business: formatCents(Number(c.team_business_cents)),
      created_at: c.created_at,
    })),
  };
}
