import { sql } from 'kysely';
import * as v from 'valibot';
import { payCto } from '../../../src/server/modules/cto/cto.service.ts';
import { excludeMember, restoreMember } from '../../../src/server/modules/rewards/rank-exclusions.service.ts';
import {
  carryForward,
  claimReward,
  createRewardPlan,
} from '../../../src/server/modules/rewards/rewards.service.ts';
import { createSalaryTier } from '../../../src/server/modules/salary/salary.service.ts';
import { catchUpSalary, runSalaryByAdmin } from '../../../src/server/modules/salary/salary-run.service.ts';
import { updateSettings } from '../../../src/server/modules/settings/settings.service.ts';
import { PLATFORM, walletAccountId } from '../../../src/server/modules/wallets/ledger.service.ts';
import { CTO_MESSAGES, ctoPaySchema, previousMonth } from '../../../src/shared/cto.ts';
import { formatCents, parseCents } from '../../../src/shared/money.ts';
import { exclusionBodySchema, exclusionIdSchema } from '../../../src/shared/rank-exclusions.ts';
import {
  REWARD_MESSAGES,
  rewardClaimSchema,
  rewardIdParamsSchema,
  rewardPlanSchema,
} from '../../../src/shared/rewards.ts';
import { addMonths, salaryRunSchema, salaryTierSchema } from '../../../src/shared/salary.ts';
import { settingsUpdateSchema } from '../../../src/shared/settings.ts';
import { WALLET_MESSAGES } from '../../../src/shared/wallets.ts';
import type { FaultPlan } from '../fault-plugin.ts';
import type { Rng } from '../prng.ts';
import {
  type Answer,
  type Ctx,
  type Domain,
  faulty,
  memberAt,
  observe,
  sessionOf,
  type World,
} from '../world.ts';
import { investedBetween, type OwnerInvestments } from './income.ts';

// Rewards, salary and the CTO (RULES.md "Rewards, salary, CTO, leadership"): reward claims (reached,
// repeated, not reached, unknown, another member's, two at once), carry-forward, the admin's salary
// runs of ended, current, future, repeated and malformed months (several at once) and the scheduler's
// salary catch-up, CTO payments (repeated, two admins at once, months with nothing to split) and the
// CTO exclusions that change its split. The model computes each payment from RULES.md, not from the
// SQL: team business is the sum of the downline's investments as the income domain learned them (its
// state), a month's new business the part of it bought in that month, the month's deposits what the
// answers credited from the deposits account in it; each answered payment moves what RULES.md says.
//
// Its operations start a step of their own (`join: false`), so no top-up of the income domain runs
// beside them, except a client's resent one: then the team business is taken as it stood before or
// after the step's investments, whichever the answer shows.

/** The reward ladder set up (small thresholds: a 10,000-operation run with 6 members reaches most). */
const LADDER = [
  { rank: 'Sim Star', needed: '25.00', amount: '1.00' },
  { rank: 'Sim Bronze', needed: '100.00', amount: '2.50' },
  { rank: 'Sim Silver', needed: '300.00', amount: '5.00' },
  { rank: 'Sim Gold', needed: '800.00', amount: '10.00' },
  { rank: 'Sim Platinum', needed: '1500.00', amount: '20.00' },
  { rank: 'Sim Diamond', needed: '3000.00', amount: '50.00' },
] as const;
/** Salary tiers: new team business in a month, active directs, amount (each amount its own). */
const TIERS = [
  { name: 'Sim Salary 1', min: '20.00', directs: 0, amount: '2.00' },
  { name: 'Sim Salary 2', min: '100.00', directs: 1, amount: '5.00' },
  { name: 'Sim Salary 3', min: '400.00', directs: 2, amount: '15.00' },
] as const;
/** The CTO share set up (RULES.md's default is 1%; an admin may change it). */
const CTO_SHARE = '2.50';
const SALARY_OPTIONS = { leaseMs: 60_000, payPauseMs: 0 };
const SALARY_CATCH_UP_MONTHS = 12;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const NONE = '00000000-0000-4000-8000-0000000000bb';

/** POST /rewards/user/claim/{id} and PUT /rewards/carry-forward/{id}: the route's path check. */

/** Months from the current one (a number), a raw value sent as is, or none (the route's default). */
type MonthPick = number | string | null | undefined;
type Target = 'self' | number | 'admin' | 'unknown';

export type RewardsOp =
  | {
      kind: 'reward-claim';
      join: boolean;
      by: number;
      /** Whose claim the path names (`self`: the signed-in member's own). */
      for: Target;
      /** A rung of the ladder by index, one that does not exist, or a blank id. */
      reward: number | 'unknown' | 'blank';
      /** The same claim sent again at the same moment (a second click). */
      rival: boolean;
    }
  | { kind: 'reward-carry'; join: boolean; key: undefined; by: number | 'admin'; for: Target }
  | {
      kind: 'salary-run';
      join: boolean;
      key: undefined;
      month: MonthPick;
      copies: number;
      crashAt: number;
    }
  | { kind: 'salary-catchup'; join: boolean; key: undefined; copies: number; crashAt: number }
  | { kind: 'cto-pay'; join: boolean; month: MonthPick; rival: boolean }
  | {
      kind: 'cto-exclude';
      join: boolean;
      key: undefined;
      who: number | 'admin' | 'unknown';
      restore: boolean;
      reason: string | undefined;
    };

type Rung = { id: string; rank: string; needed: number; amount: number };
type Tier = { id: string; name: string; min: number; directs: number; amount: number };

/** What this domain reads of the income domain's model (income.ts IncomeState). */
type IncomeView = {
  investments: Map<string, { owner: string; cents: number; learnedAt: number }>;
  byOwner: Map<string, OwnerInvestments>;
  lastLearnedAt: number;
  people: Map<string, { sponsor: string | null; isUser: boolean; active: boolean }>;
};

type RewardsState = {
  ladder: Rung[];
  tiers: Tier[];
  /** `member|reward` -> the owner's key of the claim that paid it (undefined: sent without one). */
  claims: Map<string, string | undefined>;
  /** `member|month` -> the salary paid. */
  salaries: Map<string, number>;
  /** Months a run answered as done: every member qualifying was paid. */
  settledMonths: Set<string>;
  /** Month -> the owner's key of the Pay that paid it, and how many members it paid. */
  cto: Map<string, { key: string | undefined; members: number }>;
  ctoPayouts: number;
  excluded: Set<string>;
  /** The exclusions as they stood before the step that changed them last. */
  excludedBefore: { at: number; set: Set<string> } | undefined;
  /** Month -> cents the deposits account credited in it, as the answers say (attributed at each check). */
  deposits: Map<string, number>;
  depositsSeen: number;
  carries: number;
  /** An operation of this domain was learned since the last check. */
  dirty: boolean;
};

type Copy = Answer & { crashedOnce?: boolean };
type ClaimSeen = { copies: Copy[]; claimed: boolean | undefined };
type SalaryRow = {
  id: string;
  user_id: string;
  month: string;
  tier_id: string;
  amount_cents: number | string;
  new_business_cents: number | string;
  active_directs: number | string;
};
type SalarySeen = { copies: Copy[]; paid: SalaryRow[]; asked: unknown };
type PayoutRow = { id: string; user_id: string; rank: string; amount_cents: number | string };
type CtoSeen = { copies: Copy[]; chosen: unknown; paid: boolean; payouts: PayoutRow[] };
type CtoBody = {
  payment?: { month: string; deposits: string; pool: string; members: number; per_member: string };
};

const centsOf = (input: string) => parseCents(input) as number;
const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const monthStartMs = (month: string) => Date.parse(`${month}-01T00:00:00.000Z`);
const tick = () => new Promise((resolve) => setImmediate(resolve));

function incomeOf(c: Ctx<RewardsState>): IncomeView {
  const view = c.model.states.get('income') as IncomeView | undefined;
  if (!view) throw new Error('the rewards domain needs the income domain (its investments and members)');
  return view;
}

/** The ids above a member, as RULES.md's downline counts them (the walk stops at anyone not a member). */
function uplineOf(people: IncomeView['people'], owner: string): string[] {
  const up: string[] = [];
  let current = owner;
  for (let i = 0; i < 10_000; i++) {
    const person = people.get(current);
    if (!person?.isUser || !person.sponsor) break;
    up.push(person.sponsor);
    current = person.sponsor;
  }
  return up;
}

/** The principal requests the withdrawals domain learned, pending or paid (when it runs beside this one). */
type PrincipalOut = { userId: string; kind: string; cents: number; status: string; openedAt: number };

/**
 * Principal on its way out or paid, by owner, asked for in [from, to): RULES.md's team business counts
 * no withdrawn principal (from the request on; a rejection or cancel puts it back).
 */
function principalOut(c: Ctx<RewardsState>, from: number, to: number): { owner: string; cents: number }[] {
  const w = c.model.states.get('withdrawals') as { requests: Map<string, PrincipalOut> } | undefined;
  const out: { owner: string; cents: number }[] = [];
  for (const r of w?.requests.values() ?? [])
    if (
      r.kind === 'principal' &&
      (r.status === 'pending' || r.status === 'approved') &&
      r.openedAt >= from &&
      r.openedAt < to
    )
      out.push({ owner: r.userId, cents: -r.cents });
  return out;
}

/**
 * Team business by member: the sum of the investments learned in [from, to) of everyone below them
 * (from each owner's running sums, not a pass over every investment, which grew with a long run), less
 * the principal they asked to withdraw in it.
 */
function businessOf(
  c: Ctx<RewardsState>,
  income: IncomeView,
  from = Number.NEGATIVE_INFINITY,
  to = Number.POSITIVE_INFINITY,
) {
  const totals = new Map<string, number>();
  for (const { owner, cents } of [...investedBetween(income.byOwner, from, to), ...principalOut(c, from, to)])
    for (const id of uplineOf(income.people, owner)) totals.set(id, (totals.get(id) ?? 0) + cents);
  return totals;
}

/**
 * Team business as the step's operations may have seen it: before and after the investments learned in
 * this step (a resent top-up beside them), or the one view when there were none.
 */
function businessViews(c: Ctx<RewardsState>, income: IncomeView, now: number): Map<string, number>[] {
  const after = businessOf(c, income);
  return income.lastLearnedAt === now
    ? [businessOf(c, income, Number.NEGATIVE_INFINITY, now), after]
    : [after];
}

const isMember = (income: IncomeView, id: string) => income.people.get(id)?.isUser === true;

/** RULES.md "Salary": who qualifies for `month`, with their new business, active directs and tier. */
function salaryDue(c: Ctx<RewardsState>, state: RewardsState, income: IncomeView, month: string) {
  const from = monthStartMs(month);
  const to = monthStartMs(addMonths(month, 1));
  const fresh = businessOf(c, income, from, to);
  const invested = new Set<string>();
  for (const [owner, mine] of income.byOwner) if ((mine.list[0]?.learnedAt ?? to) < to) invested.add(owner);
  const due = new Map<string, { business: number; directs: number; tier: Tier }>();
  for (const [id, business] of fresh) {
    if (!isMember(income, id)) continue;
    let directs = 0;
    for (const [other, p] of income.people)
      if (p.sponsor === id && p.isUser && p.active && invested.has(other)) directs += 1;
    // The single highest tier (by amount) whose business and directs the member meets.
    const tier = state.tiers
      .filter((t) => business >= t.min && directs >= t.directs)
      .sort((a, b) => b.amount - a.amount)[0];
    if (tier) due.set(id, { business, directs, tier });
  }
  return due;
}

/** RULES.md "Rewards": the business beyond the last reward reached, toward the next one. */
function carryOf(ladder: Rung[], business: number) {
  const last = ladder.filter((r) => business >= r.needed).at(-1);
  const next = ladder.find((r) => business < r.needed);
  if (last && next)
    return {
      carry: { from_rank: last.rank, to_rank: next.rank, amount: formatCents(business - last.needed) },
    };
  return { message: last ? REWARD_MESSAGES.carryTopReached : REWARD_MESSAGES.carryNothingReached };
}

/** RULES.md "CTO": the month's pool split equally among the members holding the top two ranks. */
function ctoFigures(state: RewardsState, income: IncomeView, month: string, business: Map<string, number>) {
  const deposits = state.deposits.get(month) ?? 0;
  const pool = Math.floor((deposits * centsOf(CTO_SHARE)) / 10_000);
  const lowest = state.ladder.at(-2) ?? state.ladder.at(-1);
  const holders: { id: string; rank: string }[] = [];
  for (const [id, cents] of business) {
    if (!lowest || !isMember(income, id) || cents <= 0 || cents < lowest.needed) continue;
    const rank = state.ladder.filter((r) => cents >= r.needed).at(-1)?.rank ?? lowest.rank;
    holders.push({ id, rank });
  }
  return { deposits, pool, holders };
}

const memberIdOf = (world: World, target: Target, self: string) =>
  target === 'self'
    ? self
    : target === 'admin'
      ? world.admin.id
      : target === 'unknown'
        ? NONE
        : memberAt(world, target).id;

const rungOf = (state: RewardsState, pick: number | 'unknown' | 'blank') =>
  typeof pick === 'number' ? state.ladder[pick % state.ladder.length] : undefined;

const rewardIdOf = (state: RewardsState, pick: number | 'unknown' | 'blank') =>
  pick === 'blank' ? '  ' : (rungOf(state, pick)?.id ?? NONE);

/** The month an operation sends: a number is months from the current one; other values as they are. */
const monthInput = (pick: MonthPick): unknown =>
  typeof pick === 'number' ? addMonths(monthOf(Date.now()), pick) : pick;

/** A month the routes accept: YYYY-MM, ended (null: the field was sent, and is not a month). */
const endedMonth = (input: unknown, now: number): boolean =>
  input === undefined || (typeof input === 'string' && MONTH.test(input) && input < monthOf(now));

function monthPick(r: Rng): MonthPick {
  const d = r.next();
  if (d < 0.3) return undefined;
  if (d < 0.45) return -1;
  if (d < 0.7) return -r.int(2, 4);
  if (d < 0.8) return -r.int(5, 16);
  if (d < 0.9) return 0;
  if (d < 0.95) return 1;
  return r.pick(['2026-13', '2026-1', '', 'last month', null]);
}

type Outcome = { statusCode: number; body: unknown };

/** Sends `work` once per copy, all at once; a copy that crashed is sent once more by its client. */
async function copiesOf(world: World, plan: FaultPlan, copies: number, work: () => Promise<Outcome>) {
  const retry: FaultPlan = { label: 'retry', failBefore: 0, seen: 0, fired: false };
  return Promise.all(
    Array.from({ length: copies }, async (_, k): Promise<Copy> => {
      for (let d = 0; d < k; d++) await tick();
      const first = await faulty(world, plan, work);
      return first.crashed ? { ...(await faulty(world, retry, work)), crashedOnce: true } : first;
    }),
  );
}

/**
 * Copies that carry their own Idempotency-Key (a second click, a second admin): at once on SQLite,
 * where the seed decides who wins, one after the other on PostgreSQL, where the server would (so a
 * seed replays there, as income.ts's redemptions).
 */
async function keyedCopies(
  world: World,
  keys: (string | undefined)[],
  send: (key?: string) => Promise<Answer>,
) {
  if (world.dialect !== 'sqlite') {
    const answers: Answer[] = [];
    for (const key of keys) answers.push(await send(key));
    return answers;
  }
  return Promise.all(
    keys.map(async (key, k) => {
      for (let d = 0; d < k; d++) await tick();
      return send(key);
    }),
  );
}

/** Learned successes before refusals: a 409 of the same step may name a claim or a Pay learned after it. */
const successFirst = (copies: Copy[]) =>
  [...copies.entries()].sort(
    ([i, a], [j, b]) => Number(b.status === 201) - Number(a.status === 201) || i - j,
  );

const rivalKey = (key: string | undefined) => (key === undefined ? undefined : `${key}/rival`);

export const rewards: Domain<RewardsOp, RewardsState> = {
  name: 'rewards',
  kinds: ['reward-claim', 'reward-carry', 'salary-run', 'salary-catchup', 'cto-pay', 'cto-exclude'],
  weight: 0.15,
  state: () => ({
    ladder: [],
    tiers: [],
    claims: new Map(),
    salaries: new Map(),
    settledMonths: new Set(),
    cto: new Map(),
    ctoPayouts: 0,
    excluded: new Set(),
    excludedBefore: undefined,
    deposits: new Map(),
    depositsSeen: 0,
    carries: 0,
    dirty: false,
  }),

  generate(r: Rng, g) {
    const roll = r.next();
    const member = () => r.int(0, g.members - 1);
    const target = (): Target => {
      const t = r.next();
      return t < 0.85 ? 'self' : t < 0.93 ? member() : t < 0.97 ? 'admin' : 'unknown';
    };
    if (roll < 0.38) {
      const p = r.next();
      return {
        key: g.key,
        kind: 'reward-claim',
        join: false,
        by: member(),
        for: target(),
        // The low rungs most often: they are the ones reached.
        reward: p < 0.9 ? Math.min(r.int(0, 5), r.int(0, 5)) : p < 0.97 ? 'unknown' : 'blank',
        rival: r.chance(0.2),
      };
    }
    if (roll < 0.48)
      return {
        key: undefined,
        kind: 'reward-carry',
        join: false,
        by: r.chance(0.85) ? member() : 'admin',
        for: target(),
      };
    if (roll < 0.68)
      return {
        key: undefined,
        kind: 'salary-run',
        join: false,
        month: monthPick(r),
        copies: r.chance(0.3) ? r.int(2, 3) : 1,
        crashAt: r.int(1, 40),
      };
    if (roll < 0.74)
      return {
        key: undefined,
        kind: 'salary-catchup',
        join: false,
        copies: r.chance(0.3) ? 2 : 1,
        crashAt: r.int(1, 60),
      };
    if (roll < 0.94)
      return { key: g.key, kind: 'cto-pay', join: false, month: monthPick(r), rival: r.chance(0.2) };
    const w = r.next();
    return {
      key: undefined,
      kind: 'cto-exclude',
      join: false,
      who: w < 0.9 ? member() : w < 0.95 ? 'admin' : 'unknown',
      restore: r.chance(0.6),
      reason: r.chance(0.5) ? undefined : r.pick(['checked by support', ' ', 'x'.repeat(201)]),
    };
  },

  async setup(c, admin) {
    const { world, state } = c;
    incomeOf(c);
    for (const rung of LADDER) {
      const outcome = await createRewardPlan(
        world.db,
        admin,
        v.parse(rewardPlanSchema, { rank: rung.rank, business_needed: rung.needed, amount: rung.amount }),
      );
      const { reward } = outcome.body as { reward: { id: string } };
      state.ladder.push({
        id: reward.id,
        rank: rung.rank,
        needed: centsOf(rung.needed),
        amount: centsOf(rung.amount),
      });
    }
    for (const t of TIERS) {
      const { tier } = await createSalaryTier(
        world.db,
        admin,
        v.parse(salaryTierSchema, {
          name: t.name,
          min_business: t.min,
          min_active_directs: t.directs,
          amount: t.amount,
        }),
      );
      state.tiers.push({
        id: tier.id,
        name: t.name,
        min: centsOf(t.min),
        directs: t.directs,
        amount: centsOf(t.amount),
      });
    }
    await updateSettings(
      world.db,
      admin.user,
      v.parse(settingsUpdateSchema, { cto_share_percent: CTO_SHARE }),
    );
  },

  owner: (world, op) =>
    op.kind === 'reward-claim'
      ? memberAt(world, op.by).id
      : op.kind === 'reward-carry' && op.by !== 'admin'
        ? memberAt(world, op.by).id
        : world.admin.id,

  async send({ world, state }, op, plan) {
    // A run crashes anywhere in it, not only in its first statements.
    if (plan.failBefore > 0 && (op.kind === 'salary-run' || op.kind === 'salary-catchup'))
      plan.failBefore = op.crashAt;
    switch (op.kind) {
      case 'reward-claim': {
        const who = memberAt(world, op.by);
        const session = await sessionOf(world, who);
        const target = memberIdOf(world, op.for, who.id);
        const rewardId = rewardIdOf(state, op.reward);
        const copies = await keyedCopies(world, op.rival ? [op.key, rivalKey(op.key)] : [op.key], (key) =>
          faulty(world, plan, () =>
            claimReward(
              world.db,
              session,
              v.parse(rewardIdParamsSchema, { id: target }).id,
              v.parse(rewardClaimSchema, { reward_id: rewardId }).reward_id,
              key,
            ),
          ),
        );
        // A refusal as claimed already: is the claim there?
        const claimed = copies.some((a) => a.status === 409)
          ? (await observe(world, (db) =>
              db
                .selectFrom('reward_claims')
                .select('id')
                .where('user_id', '=', target)
                .where('reward_id', '=', rewardId)
                .executeTakeFirst(),
            )) !== undefined
          : undefined;
        const seen: ClaimSeen = { copies, claimed };
        return { ...(copies[0] as Answer), seen };
      }
      case 'reward-carry': {
        const asker = op.by === 'admin' ? world.admin : memberAt(world, op.by);
        const session = await sessionOf(world, asker);
        const target = memberIdOf(world, op.for, asker.id);
        return faulty(world, plan, async () => ({
          statusCode: 200,
          body: await carryForward(world.db, session, v.parse(rewardIdParamsSchema, { id: target }).id),
        }));
      }
      case 'salary-run':
      case 'salary-catchup': {
        const admin = await sessionOf(world, world.admin);
        const asked = op.kind === 'salary-run' ? monthInput(op.month) : undefined;
        const copies = await copiesOf(world, plan, op.copies, async () =>
          op.kind === 'salary-run'
            ? {
                statusCode: 200,
                body: await runSalaryByAdmin(
                  world.db,
                  admin,
                  v.parse(salaryRunSchema, asked === undefined ? {} : { month: asked }).month,
                  SALARY_OPTIONS,
                ),
              }
            : {
                statusCode: 200,
                body: await catchUpSalary(world.db, {
                  ...SALARY_OPTIONS,
                  catchUpMonths: SALARY_CATCH_UP_MONTHS,
                }),
              },
        );
        // What the step's runs paid (rows written at this simulated instant: this step's).
        const now = new Date().toISOString();
        const paid = await observe(world, (db) =>
          db
            .selectFrom('salary_payments')
            .select([
              'id',
              'user_id',
              'month',
              'tier_id',
              'amount_cents',
              'new_business_cents',
              'active_directs',
            ])
            .where('created_at', '=', now)
            .orderBy('id')
            .execute(),
        );
        const seen: SalarySeen = { copies, paid, asked };
        // A run that answered, if any: which copy it was is the database's scheduling.
        return { ...(copies.find((a) => a.status === 200) ?? (copies[0] as Copy)), seen };
      }
      case 'cto-pay': {
        const admin = await sessionOf(world, world.admin);
        const asked = monthInput(op.month);
        const copies = await keyedCopies(world, op.rival ? [op.key, rivalKey(op.key)] : [op.key], (key) =>
          faulty(world, plan, () =>
            payCto(
              world.db,
              admin,
              v.parse(ctoPaySchema, asked === undefined ? {} : { month: asked }).month,
              key,
            ),
          ),
        );
        const chosen = asked === undefined ? previousMonth() : asked;
        const found =
          typeof chosen === 'string' && MONTH.test(chosen)
            ? await observe(world, async (db) => ({
                paid:
                  (await db
                    .selectFrom('cto_payments')
                    .select('month')
                    .where('month', '=', chosen)
                    .executeTakeFirst()) !== undefined,
                payouts: await db
                  .selectFrom('cto_payouts')
                  .select(['id', 'user_id', 'rank', 'amount_cents'])
                  .where('month', '=', chosen)
                  .orderBy('user_id')
                  .execute(),
              }))
            : { paid: false, payouts: [] };
        const seen: CtoSeen = { copies, chosen, ...found };
        return { ...(copies[0] as Answer), seen };
      }
      case 'cto-exclude': {
        const admin = await sessionOf(world, world.admin);
        const id =
          op.who === 'admin' ? world.admin.id : op.who === 'unknown' ? NONE : memberAt(world, op.who).id;
        return faulty(world, plan, async () => {
          const params = v.parse(exclusionIdSchema, { id });
          if (op.restore)
            return { statusCode: 200, body: await restoreMember(world.db, admin, 'cto', params.id) };
          const body = v.parse(exclusionBodySchema, op.reason === undefined ? {} : { reason: op.reason });
          return {
            statusCode: 200,
            body: await excludeMember(world.db, admin, 'cto', params.id, body.reason),
          };
        });
      }
    }
  },

  learnRank: () => 3,
  resultId: (answer) => {
    const payment = (answer.body as CtoBody | undefined)?.payment;
    return payment ? `cto:${payment.month}` : undefined;
  },
  summary: (state) => ({
    rewardsClaimed: state.claims.size,
    carryForwards: state.carries,
    salaryPayments: state.salaries.size,
    salaryMonthsSettled: state.settledMonths.size,
    ctoPayments: state.cto.size,
    ctoPayouts: state.ctoPayouts,
  }),

  learn(c, op, answer, ownerKey) {
    c.state.dirty = true;
    // The process was dropped before the call reached the service (while its client signed in).
    if (answer.crashed && answer.seen === undefined) return undefined;
    switch (op.kind) {
      case 'reward-claim':
        return learnClaim(c, op, answer.seen as ClaimSeen, ownerKey);
      case 'reward-carry':
        return learnCarry(c, op, answer);
      case 'salary-run':
      case 'salary-catchup':
        return learnSalary(c, op, answer.seen as SalarySeen);
      case 'cto-pay':
        return learnCto(c, answer.seen as CtoSeen, ownerKey);
      case 'cto-exclude':
        return learnExclusion(c, op, answer);
    }
  },

  async check({ world, model, state }, full) {
    // The month's deposits: what the answers of this step credited from the deposits account.
    const deposits = -(model.balance.get(PLATFORM.deposits) ?? 0);
    if (deposits !== state.depositsSeen) {
      const month = monthOf(Date.now());
      state.deposits.set(month, (state.deposits.get(month) ?? 0) + deposits - state.depositsSeen);
      state.depositsSeen = deposits;
    }
    if (!state.dirty && !full) return undefined;
    state.dirty = false;
    const db = world.db;
    // One statement for the seven counts: on PostgreSQL each round trip costs more than the count.
    const { rows } = await sql<Record<string, number | string>>`select
      (select count(*) from reward_claims) as claims,
      (select count(*) from ledger_transfers where kind = 'reward') as rewards,
      (select count(*) from salary_payments) as salaries,
      (select count(*) from ledger_transfers where kind = 'salary') as salary_transfers,
      (select count(*) from cto_payments) as cto,
      (select count(*) from cto_payouts) as cto_payouts,
      (select count(*) from ledger_transfers where kind = 'cto') as cto_transfers`.execute(db);
    const counted = (name: string) => Number(rows[0]?.[name]);
    for (const [what, n, want] of [
      ['reward_claims has', counted('claims'), state.claims.size],
      ['the ledger has reward transfers:', counted('rewards'), state.claims.size],
      ['salary_payments has', counted('salaries'), state.salaries.size],
      ['the ledger has salary transfers:', counted('salary_transfers'), state.salaries.size],
      ['cto_payments has', counted('cto'), state.cto.size],
      ['cto_payouts has', counted('cto_payouts'), state.ctoPayouts],
      ['the ledger has CTO transfers:', counted('cto_transfers'), state.ctoPayouts],
    ] as const)
      if (n !== want) return `${what} ${n} rows, but the payments answered account for ${want}`;
    if (!full) return undefined;
    // Each payment at most once per its key, in its table and in the ledger; each reward transfer names
    // its claim.
    for (const [table, key] of [
      ['reward_claims', 'reward_id'],
      ['salary_payments', 'month'],
      ['cto_payouts', 'month'],
    ] as const) {
      const { rows } = await sql<{ user_id: string }>`select user_id from ${sql.table(table)}
        group by user_id, ${sql.ref(key)} having count(*) > 1`.execute(db);
      if (rows.length > 0) return `${table} pays ${rows[0]?.user_id} twice for one ${key}`;
    }
    const { rows: twice } = await sql<{ reference: string; credit_account_id: string }>`
      select reference, credit_account_id from ledger_transfers where kind in ('reward', 'salary', 'cto')
      group by reference, credit_account_id having count(*) > 1`.execute(db);
    if (twice.length > 0)
      return `the ledger pays ${twice[0]?.credit_account_id} twice for ${twice[0]?.reference}`;
    const { rows: orphans } = await sql<{ reference: string }>`select t.reference from ledger_transfers t
      where t.kind = 'reward' and not exists
        (select 1 from reward_claims c where 'reward:' || c.id = t.reference)`.execute(db);
    if (orphans.length > 0) return `a reward transfer (${orphans[0]?.reference}) names no claim`;
    return undefined;
  },
};

function learnClaim(
  c: Ctx<RewardsState>,
  op: Extract<RewardsOp, { kind: 'reward-claim' }>,
  seen: ClaimSeen,
  ownerKey: string | undefined,
): string | undefined {
  const { world, model, state } = c;
  const income = incomeOf(c);
  const member = memberAt(world, op.by).id;
  const target = memberIdOf(world, op.for, member);
  const rung = rungOf(state, op.reward);
  const label = `${world.labels.get(member)}'s ${rung?.rank ?? op.reward}`;
  const business = businessViews(c, income, Date.now()).map((b) => b.get(member) ?? 0);
  const own = target === member && rung !== undefined;
  for (const [k, a] of successFirst(seen.copies)) {
    if (a.crashed) continue;
    const key = k === 0 ? ownerKey : rivalKey(ownerKey);
    const what = `a claim of ${label} (for ${world.labels.get(target) ?? target})`;
    switch (a.status) {
      case 201: {
        if (!own || !rung) return `${what} was answered 201`;
        if (!business.some((b) => b >= rung.needed))
          return `${what} was paid, but the team business is ${business.join(' or ')}, below ${rung.needed}`;
        const claimKey = `${member}|${rung.id}`;
        if (state.claims.has(claimKey)) {
          const first = state.claims.get(claimKey);
          if (a.replayed && key !== undefined && first === key) continue;
          return `the reward ${label} was claimed twice (under ${first ?? 'no key'}, then ${key ?? 'no key'}${a.replayed ? ', replayed' : ''})`;
        }
        state.claims.set(claimKey, key);
        model.move(PLATFORM.income, walletAccountId(member, 'working'), rung.amount);
        break;
      }
      case 409:
        if (String(a.body) === WALLET_MESSAGES.idempotencyReused && key !== undefined) break;
        if (!own || seen.claimed !== true) return `${what} was refused as claimed already, but it is not`;
        break;
      case 422:
        if (!own || !rung || !business.some((b) => b < rung.needed))
          return `${what} was refused as not reached (${String(a.body)}), with team business ${business.join(' or ')}`;
        break;
      case 404:
        if (own) return `${what} was answered 404: ${String(a.body)}`;
        break;
      case 400:
        if (op.reward !== 'blank') return `${what} was answered 400: ${String(a.body)}`;
        break;
      default:
        return `${what} was answered ${a.status}: ${String(a.body)}`;
    }
  }
  return undefined;
}

function learnCarry(
  c: Ctx<RewardsState>,
  op: Extract<RewardsOp, { kind: 'reward-carry' }>,
  answer: Answer,
): string | undefined {
  if (answer.crashed) return undefined;
  const { world, state } = c;
  const income = incomeOf(c);
  const asker = op.by === 'admin' ? world.admin.id : memberAt(world, op.by).id;
  const target = memberIdOf(world, op.for, asker);
  const allowed = isMember(income, target) && (op.by === 'admin' || target === asker);
  const what = `the carry-forward of ${world.labels.get(target) ?? target} asked by ${world.labels.get(asker)}`;
  if (answer.status === 404) return allowed ? `${what} was answered 404` : undefined;
  if (!allowed) return `${what} was answered ${answer.status}`;
  const want = businessViews(c, income, Date.now()).map((b) => carryOf(state.ladder, b.get(target) ?? 0));
  if (answer.status === 200) {
    const got = JSON.stringify((answer.body as { carry_forward?: unknown }).carry_forward);
    if (!want.some((w) => JSON.stringify(w.carry) === got))
      return `${what} answered ${got}, but RULES.md carries ${want.map((w) => JSON.stringify(w.carry ?? w.message)).join(' or ')}`;
    state.carries += 1;
    return undefined;
  }
  if (answer.status === 422 && want.some((w) => w.message === String(answer.body))) return undefined;
  return `${what} was answered ${answer.status} (${String(answer.body)}), but RULES.md carries ${want.map((w) => JSON.stringify(w.carry ?? w.message)).join(' or ')}`;
}

function learnSalary(
  c: Ctx<RewardsState>,
  op: Extract<RewardsOp, { kind: 'salary-run' | 'salary-catchup' }>,
  seen: SalarySeen,
): string | undefined {
  const { world, model, state } = c;
  const income = incomeOf(c);
  const now = Date.now();
  const current = monthOf(now);
  const name = (id: string) => world.labels.get(id) ?? id;
  // Each salary the step paid: for an ended month, once per member, the tier RULES.md gives.
  const byMonth = new Map<string, { n: number; cents: number }>();
  for (const row of seen.paid) {
    if (row.month >= current)
      return `a salary for ${row.month} was paid in ${current}, before the month ended`;
    const key = `${row.user_id}|${row.month}`;
    if (state.salaries.has(key)) return `the salary of ${name(row.user_id)} for ${row.month} was paid twice`;
    const due = salaryDue(c, state, income, row.month).get(row.user_id);
    const cents = Number(row.amount_cents);
    if (!due)
      return `a salary of ${cents} was paid to ${name(row.user_id)} for ${row.month} (new business ${row.new_business_cents}, ${row.active_directs} active directs), who does not qualify by RULES.md`;
    if (due.tier.id !== row.tier_id || due.tier.amount !== cents)
      return `${name(row.user_id)} was paid ${cents} for ${row.month}, but RULES.md's highest tier met is ${due.tier.name} (${due.tier.amount}: new business ${due.business}, ${due.directs} active directs)`;
    if (Number(row.new_business_cents) !== due.business || Number(row.active_directs) !== due.directs)
      return `the salary of ${name(row.user_id)} for ${row.month} names new business ${row.new_business_cents} and ${row.active_directs} directs, but RULES.md counts ${due.business} and ${due.directs}`;
    state.salaries.set(key, cents);
    model.move(PLATFORM.income, walletAccountId(row.user_id, 'working'), cents, row.id);
    const m = byMonth.get(row.month) ?? { n: 0, cents: 0 };
    byMonth.set(row.month, { n: m.n + 1, cents: m.cents + cents });
  }
  // The answers: an ended month is run (200), anything else refused (400); what a run answered done
  // has paid every member who qualifies.
  const settled = new Set<string>();
  let said = { n: 0, cents: 0 };
  for (const a of seen.copies) {
    if (a.crashed) continue;
    if (op.kind === 'salary-run') {
      const valid = endedMonth(seen.asked, now);
      if (a.status === 200 && !valid)
        return `a salary run for ${String(seen.asked)} (in ${current}) was answered 200`;
      if (a.status === 400 && valid)
        return `a salary run for ${String(seen.asked)} was refused: ${String(a.body)}`;
      if (a.status !== 200 && a.status !== 400)
        return `a salary run for ${String(seen.asked)} was answered ${a.status}: ${String(a.body)}`;
      if (a.status === 200) {
        const run = (a.body as { run: { month: string; members_paid: number; total: string } }).run;
        settled.add(run.month);
        said = { n: said.n + run.members_paid, cents: said.cents + centsOf(run.total) };
      }
    } else if (a.status === 200) {
      for (const o of a.body as { month: string; skipped: boolean; membersPaid: number }[]) {
        if (o.month >= current) return `the salary catch-up ran ${o.month} in ${current}, before it ended`;
        if (!o.skipped) settled.add(o.month);
      }
    } else return `the salary catch-up was answered ${a.status}: ${String(a.body)}`;
  }
  // What uncrashed runs answered they paid is what they paid.
  if (op.kind === 'salary-run' && !seen.copies.some((a) => a.crashed || a.crashedOnce)) {
    const month = [...settled][0];
    const paid = (month && byMonth.get(month)) || { n: 0, cents: 0 };
    if (month && (paid.n !== said.n || paid.cents !== said.cents))
      return `runs of ${month} answered ${said.n} salaries (${said.cents}), but paid ${paid.n} (${paid.cents})`;
  }
  for (const month of settled) {
    state.settledMonths.add(month);
    for (const [id, due] of salaryDue(c, state, income, month))
      if (!state.salaries.has(`${id}|${month}`))
        return `the salaries of ${month} are answered paid, but ${name(id)} (new business ${due.business}, ${due.directs} active directs: ${due.tier.name}) was not paid`;
  }
  return undefined;
}

function learnCto(c: Ctx<RewardsState>, seen: CtoSeen, ownerKey: string | undefined): string | undefined {
  const { world, model, state } = c;
  const income = incomeOf(c);
  const now = Date.now();
  const valid = typeof seen.chosen === 'string' && MONTH.test(seen.chosen) && seen.chosen < monthOf(now);
  const month = String(seen.chosen);
  // Who holds the top two ranks, as the step's Pay may have seen them (before or after a resent
  // top-up's investment, or an exclusion, of the same step).
  const exclusions = [state.excluded];
  if (state.excludedBefore?.at === now) exclusions.push(state.excludedBefore.set);
  const views = businessViews(c, income, now).flatMap((business) =>
    exclusions.map((excluded) => {
      const f = ctoFigures(state, income, month, business);
      const paid = f.holders.filter((h) => !excluded.has(h.id));
      return { ...f, paid, perMember: paid.length ? Math.floor(f.pool / paid.length) : 0 };
    }),
  );
  const show = (w: (typeof views)[number]) =>
    `${w.paid.map((h) => world.labels.get(h.id)).join(',')} x ${w.perMember} of ${w.pool} (deposits ${w.deposits})`;
  for (const [k, a] of successFirst(seen.copies)) {
    if (a.crashed) continue;
    const key = k === 0 ? ownerKey : rivalKey(ownerKey);
    const what = `a CTO Pay of ${month}`;
    switch (a.status) {
      case 201: {
        if (!valid) return `${what} (in ${monthOf(now)}) was answered 201`;
        const prior = state.cto.get(month);
        if (prior) {
          if (a.replayed && key !== undefined && prior.key === key) break;
          return `the CTO of ${month} was paid twice (under ${prior.key ?? 'no key'}, then ${key ?? 'no key'}${a.replayed ? ', replayed' : ''})`;
        }
        const payment = (a.body as CtoBody).payment;
        const got = seen.payouts
          .map((p) => `${world.labels.get(p.user_id)}=${Number(p.amount_cents)}`)
          .sort()
          .join(',');
        const match = views.find(
          (w) =>
            w.perMember > 0 &&
            got ===
              w.paid
                .map((h) => `${world.labels.get(h.id)}=${w.perMember}`)
                .sort()
                .join(',') &&
            payment?.deposits === formatCents(w.deposits) &&
            payment.pool === formatCents(w.pool) &&
            payment.members === w.paid.length &&
            payment.per_member === formatCents(w.perMember),
        );
        if (!match)
          return `${what} paid [${got}] (${JSON.stringify(payment)}), but RULES.md pays ${views.map(show).join(' or ')}`;
        state.cto.set(month, { key, members: match.paid.length });
        for (const p of seen.payouts)
          model.move(PLATFORM.income, walletAccountId(p.user_id, 'working'), match.perMember, p.id);
        state.ctoPayouts += seen.payouts.length;
        break;
      }
      case 409:
        if (String(a.body) === WALLET_MESSAGES.idempotencyReused && key !== undefined) break;
        if (!seen.paid) return `${what} was refused as paid already, but it is not`;
        break;
      case 422: {
        const reason = String(a.body);
        const fits = views.some((w) =>
          reason === CTO_MESSAGES.nobody
            ? w.paid.length === 0
            : reason === CTO_MESSAGES.poolTooSmall && w.paid.length > 0 && w.perMember === 0,
        );
        if (!valid || !fits)
          return `${what} was refused (${reason}), but RULES.md pays ${views.map(show).join(' or ')}`;
        break;
      }
      case 400:
        if (valid) return `${what} was refused: ${String(a.body)}`;
        break;
      default:
        return `${what} was answered ${a.status}: ${String(a.body)}`;
    }
  }
  return undefined;
}

function learnExclusion(
  c: Ctx<RewardsState>,
  op: Extract<RewardsOp, { kind: 'cto-exclude' }>,
  answer: Answer,
): string | undefined {
  if (answer.crashed) return undefined;
  const { world, state } = c;
  const id = op.who === 'admin' ? world.admin.id : op.who === 'unknown' ? NONE : memberAt(world, op.who).id;
  const member = isMember(incomeOf(c), id);
  const tooLong = !op.restore && op.reason !== undefined && op.reason.trim().length > 200;
  const what = `the CTO ${op.restore ? 'restore' : 'exclusion'} of ${world.labels.get(id) ?? id}`;
  if (answer.status === 400) return tooLong ? undefined : `${what} was answered 400: ${String(answer.body)}`;
  if (answer.status === 404) return member ? `${what} was answered 404` : undefined;
  if (answer.status !== 200 || !member || tooLong)
    return `${what} was answered ${answer.status}: ${String(answer.body)}`;
  const now = Date.now();
  if (state.excludedBefore?.at !== now) state.excludedBefore = { at: now, set: new Set(state.excluded) };
  if (op.restore) state.excluded.delete(id);
  else state.excluded.add(id);
  return undefined;
}
