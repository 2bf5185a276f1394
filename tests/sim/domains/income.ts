import { sql } from 'kysely';
import * as v from 'valibot';
import { forbidden } from '../../../src/server/http/errors.ts';
import {
  catchUpIncome,
  DEFAULT_INCOME_OPTIONS,
  runIncomeByAdmin,
} from '../../../src/server/modules/income/income.service.ts';
import { createPlan, setLevelPercents } from '../../../src/server/modules/plans/plans.service.ts';
import {
  createCodes,
  PLATFORM_CODES_ACCOUNT,
  redeemCode,
} from '../../../src/server/modules/topups/codes.service.ts';
import { payTopup } from '../../../src/server/modules/topups/topups.service.ts';
import {
  investedAccountId,
  PLATFORM,
  walletAccountId,
} from '../../../src/server/modules/wallets/ledger.service.ts';
import { addDays, dateOf, isCalendarDate } from '../../../src/shared/dates.ts';
import { incomeRunSchema } from '../../../src/shared/income.ts';
import { parseCents } from '../../../src/shared/money.ts';
import { actPlanInputSchema, levelPercentsInputSchema, planInputSchema } from '../../../src/shared/plans.ts';
import {
  codeBatchSchema,
  codeRedeemSchema,
  TOPUP_MESSAGES,
  topupEntrySchema,
  topupSelfSchema,
} from '../../../src/shared/topups.ts';
import type { FaultPlan } from '../fault-plugin.ts';
import type { Rng } from '../prng.ts';
import {
  type Answer,
  amountInput,
  type Ctx,
  type Domain,
  faulty,
  type Member,
  memberAt,
  observe,
  sessionOf,
  type World,
} from '../world.ts';

// Income (RULES.md "Plans, top-ups and activation" and "Daily income"): top-ups and re-top-ups bought
// from the Active Wallet (for oneself or another member), activation codes (created by the admin,
// redeemed once, raced), the activation income each investment pays up the sponsor line, and the daily
// run: admin runs of past, present, repeated, skipped and future dates (several at once), and the
// scheduler's catch-up. The model keeps its own investments, members and plans and computes what each
// date must pay (ROI = amount x daily % rounded down, within the duration and the 200% cap; level
// income by the qualification rule), independently of the product's SQL; each payment the ledger shows
// is checked against it, and a date answered as paid must have paid every investment due.
//
// Income operations start a step of their own (`join: false`): a run in flight beside a top-up could
// see the new investment or not. Their own concurrency is inside the operation: several runs of one
// date (or catch-ups) at once, and a second member redeeming the same code at the same moment.

/** ROI and activation level percents in basis points, as RULES.md's defaults (set in setup). */
const ROI_LEVELS = [1000, 500, 300, 200, 100];
const ACTIVATION_LEVELS = [500];
/** RULES.md: an investment earns until it has paid 200% of its amount. */
const CAP_BP = 20_000;
/** A run pays its investments in chunks of these many, one transaction each (the seed picks). */
const CHUNK_SIZES = [25, 2] as const;
const runOptions = (chunk: number) => ({ ...DEFAULT_INCOME_OPTIONS, chunkSize: chunk });
/**
 * The catch-up's window reaches further back than an admin's runs (40 days at most): the investments it
 * closes can then never be due on a date the simulator still runs, so closing them changes nothing the
 * model must follow.
 */
const CATCH_UP_DAYS = 60;

/** The plans set up, by the name an operation picks. */
const PLANS = {
  basic: { name: 'Sim Basic', min: '10.00', max: '1000.00', roi: '1.00', days: 5 },
  fast: { name: 'Sim Fast', min: '10.00', max: '500.00', roi: '25.00', days: 12 },
  half: { name: 'Sim Half', min: '5.00', max: '2000.00', roi: '0.50', days: 6 },
  closed: { name: 'Sim Closed', min: '10.00', max: '1000.00', roi: '1.00', days: 30 },
} as const;
type PlanPick = keyof typeof PLANS | 'act' | 'bogus';
const PLAN_PICKS: PlanPick[] = ['basic', 'fast', 'half', 'act', 'closed', 'bogus'];
const ACT_PLAN = { name: 'Sim Starter', amount: '25.00', roi: '1.50', days: 3 };

type Beneficiary = 'self' | number | 'unknown' | 'admin';

export type IncomeOp =
  | {
      kind: 'topup';
      join: boolean;
      by: number;
      route: 'add' | 'retopup' | 'entry';
      /** For /topup/entry: the member topped up; `payer` other than `by` is refused (403). */
      for: Beneficiary;
      payerIsOther: boolean;
      plan: PlanPick;
      amount: unknown;
    }
  | { kind: 'code-create'; plan: PlanPick; amount: unknown; count: unknown }
  | {
      kind: 'code-redeem';
      join: boolean;
      by: number;
      pick: number;
      text: 'real' | 'lower' | 'bogus';
      /** Another member redeeming the same code at the same moment. */
      rival: number | undefined;
    }
  | {
      kind: 'income-run';
      join: boolean;
      key: undefined;
      /** Days from today (undefined: the default, yesterday); a string is sent as is. */
      date: number | string | undefined;
      copies: number;
      crashAt: number;
      chunk: number;
    }
  | { kind: 'income-catchup'; join: boolean; key: undefined; copies: number; crashAt: number; chunk: number };

type PlanModel = { id: string; roiBp: number; days: number; min: number; max: number; active: boolean };

type Investment = {
  id: string;
  owner: string;
  cents: number;
  roiBp: number;
  days: number;
  cap: number;
  created: string;
  end: string;
  /** The simulated instant it was learned: the step it was made in. */
  learnedAt: number;
  paid: number;
  daysPaid: number;
  paidDates: Set<string>;
  /** Dates already settled when it was bought: never paid. */
  skip: Set<string>;
};

type Person = { sponsor: string | null; isUser: boolean; active: boolean; activatedAt: number };

type Code = { id: string; code: string; planId: string; cents: number; topup: string | undefined };

/**
 * One owner's investments in the order learned (so by `learnedAt`, which never decreases), the place of
 * each in the order of all investments learned, and `sums[k]`: the cents of the first k.
 */
export type OwnerInvestments = { list: Investment[]; seq: number[]; sums: number[] };

type IncomeState = {
  plans: Map<PlanPick, PlanModel>;
  people: Map<string, Person>;
  investments: Map<string, Investment>;
  /**
   * Indexes of `investments`, kept so that a step's cost does not grow with a long run: those that may
   * still be due on some date (not paid for their whole duration, not capped, earning something), and
   * each owner's in the order learned (learnedAt never decreases) with their running sums of cents.
   */
  live: Set<Investment>;
  byOwner: Map<string, OwnerInvestments>;
  /** When the investment learned last was learned (-1: none yet). */
  lastLearnedAt: number;
  codes: Code[];
  /**
   * Final dates (every due investment paid by a run that started after the date ended), and the
   * simulated instant they became final. A date run before it ended is not here: it stays open.
   */
  completed: Map<string, number>;
  roiPayments: number;
  levelPayments: number;
  activationPayments: number;
  redeemed: number;
  /** An income operation was learned since the last check. */
  dirty: boolean;
};

type Row = { id: string; user_id: string; amount_cents: number | string };
type RoiRow = Row & { topup_id: string; run_date: string };
type LevelRow = Row & { roi_payment_id: string; level: number | string };
type TopupBody = {
  topup?: { id: string; user_id: string; amount: string; plan_id: string; created_at: string };
};
type Copy = { answer: Answer; code?: string; activation?: (Row & { level: number | string })[] };
type RunSeen = {
  copies: Answer[];
  roi: RoiRow[];
  level: LevelRow[];
  dates: (string | undefined)[];
  crashed: boolean;
};

/** A decimal string the product formatted, in cents. */
const centsOf = (input: string) => parseCents(input) as number;

const NONE = '00000000-0000-4000-8000-0000000000aa';

const beneficiaryOf = (world: World, op: Extract<IncomeOp, { kind: 'topup' }>) => {
  if (op.route !== 'entry' || op.for === 'self') return memberAt(world, op.by).id;
  if (op.for === 'unknown') return NONE;
  if (op.for === 'admin') return world.admin.id;
  return memberAt(world, op.for).id;
};

const planId = (state: IncomeState, pick: PlanPick) => state.plans.get(pick)?.id ?? NONE;

const codeOf = (state: IncomeState, pick: number) =>
  state.codes.length > 0 ? state.codes[pick % state.codes.length] : undefined;

function codeText(state: IncomeState, op: Extract<IncomeOp, { kind: 'code-redeem' }>): string {
  const code = codeOf(state, op.pick)?.code;
  if (!code || op.text === 'bogus') return 'NOSUCHCODE22';
  return op.text === 'lower' ? code.toLowerCase() : code;
}

/** RULES.md "Who qualifies": the uplines who earn `levels` of `cents` from `owner`'s payment. */
function earners(
  state: IncomeState,
  owner: string,
  cents: number,
  levels: number[],
  now: number,
  before: boolean,
) {
  const active = (id: string) => {
    const p = state.people.get(id);
    return p?.active && !(before && p.activatedAt === now);
  };
  const directs = (id: string) => {
    let n = 0;
    for (const [member, p] of state.people) if (p.sponsor === id && p.isUser && active(member)) n += 1;
    return n;
  };
  const paid: { user_id: string; level: number; cents: number }[] = [];
  let upline = state.people.get(owner)?.sponsor ?? null;
  for (let level = 1; level <= levels.length && upline; level += 1) {
    const share = Math.floor((cents * (levels[level - 1] as number)) / 10_000);
    if (state.people.get(upline)?.isUser && active(upline) && directs(upline) >= level && share > 0)
      paid.push({ user_id: upline, level, cents: share });
    upline = state.people.get(upline)?.sponsor ?? null;
  }
  return paid;
}

const shape = (rows: { user_id: string; level: number | string; cents: number | string }[]) =>
  rows
    .map((r) => `${r.user_id}@${Number(r.level)}=${Number(r.cents)}`)
    .sort()
    .join(',');

/**
 * The level payments the ledger shows for one source, against RULES.md: as the members stood after the
 * step's top-ups or, when a top-up in the same step activated someone, as they stood before it.
 */
function levelCheck(
  state: IncomeState,
  owner: string,
  cents: number,
  levels: number[],
  seen: { user_id: string; level: number | string; amount_cents: number | string }[],
  what: string,
): string | undefined {
  const now = Date.now();
  const got = shape(seen.map((r) => ({ ...r, cents: r.amount_cents })));
  const want = shape(earners(state, owner, cents, levels, now, false));
  if (got === want || got === shape(earners(state, owner, cents, levels, now, true))) return undefined;
  return `${what} paid [${got}], but RULES.md's qualification rule pays [${want}]`;
}

/** Whether `inv` can be due on no date any more (what it has paid only grows). */
const finished = (inv: Investment) =>
  Math.floor((inv.cents * inv.roiBp) / 10_000) === 0 || inv.daysPaid >= inv.days || inv.paid >= inv.cap;

/**
 * Each owner's investments learned in [from, to): how many, their cents, and the place in the order
 * learned of the first; in the order of those first places (rewards.ts sums team business from it).
 */
export function investedBetween(
  byOwner: Map<string, OwnerInvestments>,
  from: number,
  to: number,
): { owner: string; cents: number }[] {
  const found: { owner: string; cents: number; first: number }[] = [];
  const lowerBound = (list: Investment[], x: number) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as Investment).learnedAt < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (const [owner, mine] of byOwner) {
    const i = lowerBound(mine.list, from);
    const j = lowerBound(mine.list, to);
    if (j > i)
      found.push({
        owner,
        cents: (mine.sums[j] as number) - (mine.sums[i] as number),
        first: mine.seq[i] as number,
      });
  }
  return found.sort((a, b) => a.first - b.first);
}

/** Whether `inv` is due on `date`, by RULES.md; the reason when it is not. */
function notDue(inv: Investment, date: string): string | undefined {
  if (Math.floor((inv.cents * inv.roiBp) / 10_000) === 0) return 'it earns nothing a day';
  if (date < inv.created) return 'bought after the date';
  if (date > inv.end) return 'its duration ended';
  if (inv.daysPaid >= inv.days) return 'it was paid for its whole duration';
  if (inv.paid >= inv.cap) return 'it reached the 200% cap';
  if (inv.paidDates.has(date)) return 'it was paid for this date already';
  if (inv.skip.has(date)) return 'the date was settled before it was bought';
  return undefined;
}

/**
 * RULES.md "Daily income": a run makes its date final only when it starts a minute or more after the
 * date ended (UTC); before, it pays what is active then and the date stays open for a later run. A
 * step's runs start at the step's instant of the simulated clock.
 */
const finalAt = (date: string, now: number) =>
  now >= Date.parse(`${addDays(date, 1)}T00:00:00.000Z`) + 60_000;

/** Reads what the step's runs paid (rows written at this simulated instant: this step's). */
async function paidNow(world: World) {
  const now = new Date().toISOString();
  return observe(world, async (db) => ({
    roi: await db
      .selectFrom('roi_payments')
      .select(['id', 'topup_id', 'user_id', 'run_date', 'amount_cents'])
      .where('created_at', '=', now)
      .execute(),
    level: await db
      .selectFrom('level_incomes')
      .select(['id', 'roi_payment_id', 'user_id', 'level', 'amount_cents'])
      .where('created_at', '=', now)
      .execute(),
  }));
}

/** Runs `work` once per copy, all at once, each crashed copy retried once as its client would. */
async function copiesOf(
  world: World,
  plan: FaultPlan,
  copies: number,
  work: () => Promise<{ statusCode: number; body: unknown }>,
) {
  const retry: FaultPlan = { label: 'retry', failBefore: 0, seen: 0, fired: false };
  const answers = await Promise.all(
    Array.from({ length: copies }, async (_, k) => {
      for (let d = 0; d < k; d++) await new Promise((resolve) => setImmediate(resolve));
      const first = await faulty(world, plan, work);
      return first.crashed ? { ...(await faulty(world, retry, work)), crashedOnce: true } : first;
    }),
  );
  return answers;
}

export const income: Domain<IncomeOp, IncomeState> = {
  name: 'income',
  kinds: ['topup', 'code-create', 'code-redeem', 'income-run', 'income-catchup'],
  weight: 0.25,
  state: () => ({
    plans: new Map(),
    people: new Map(),
    investments: new Map(),
    live: new Set(),
    byOwner: new Map(),
    lastLearnedAt: -1,
    codes: [],
    completed: new Map(),
    roiPayments: 0,
    levelPayments: 0,
    activationPayments: 0,
    redeemed: 0,
    dirty: false,
  }),

  generate(r: Rng, g) {
    const roll = r.next() * 0.25;
    const member = () => r.int(0, g.members - 1);
    const plan = (): PlanPick =>
      r.chance(0.9) ? r.pick(['basic', 'basic', 'fast', 'half', 'act'] as const) : r.pick(PLAN_PICKS);
    const crashAt = r.int(1, 150);
    const chunk = r.chance(0.25) ? CHUNK_SIZES[1] : CHUNK_SIZES[0];
    if (roll < 0.09) {
      const by = member();
      const t = r.next();
      const target: Beneficiary = t < 0.5 ? 'self' : t < 0.9 ? member() : t < 0.95 ? 'unknown' : 'admin';
      const p = plan();
      return {
        key: g.key,
        kind: 'topup',
        join: false,
        by,
        route: r.chance(0.4) ? 'add' : r.chance(0.5) ? 'retopup' : 'entry',
        for: target,
        payerIsOther: r.chance(0.03),
        plan: p,
        amount: p === 'act' && r.chance(0.8) ? '25.00' : amountInput(r),
      };
    }
    if (roll < 0.105)
      return {
        key: undefined,
        kind: 'code-create',
        plan: plan(),
        amount: r.chance(0.7) ? r.pick(['25.00', '50.00', '120.00', '10.00']) : amountInput(r),
        count: r.chance(0.95) ? r.int(1, 3) : r.pick([0, 101, '2']),
      };
    if (roll < 0.145)
      return {
        key: g.key,
        kind: 'code-redeem',
        join: false,
        by: member(),
        pick: r.int(0, 1_000),
        text: r.chance(0.8) ? 'real' : r.chance(0.5) ? 'lower' : 'bogus',
        rival: r.chance(0.3) ? member() : undefined,
      };
    if (roll < 0.225) {
      const d = r.next();
      return {
        key: undefined,
        kind: 'income-run',
        join: false,
        date:
          d < 0.15
            ? undefined
            : d < 0.45
              ? 0
              : d < 0.8
                ? -r.int(1, 5)
                : d < 0.88
                  ? -r.int(6, 40)
                  : d < 0.96
                    ? r.int(1, 3)
                    : r.pick(['2026-02-30', 'yesterday', '']),
        copies: r.chance(0.3) ? r.int(2, 3) : 1,
        crashAt,
        chunk,
      };
    }
    return {
      key: undefined,
      kind: 'income-catchup',
      join: false,
      copies: r.chance(0.3) ? 2 : 1,
      crashAt,
      chunk,
    };
  },

  async setup({ world, state }, admin) {
    for (const [pick, p] of Object.entries(PLANS) as [
      keyof typeof PLANS,
      (typeof PLANS)[keyof typeof PLANS],
    ][]) {
      const input = {
        name: p.name,
        min_amount: p.min,
        max_amount: p.max,
        roi_percent: p.roi,
        duration_days: p.days,
        status: pick === 'closed' ? 'inactive' : 'active',
      };
      const { plan } = await createPlan(world.db, admin, 'plan', v.parse(planInputSchema, input));
      state.plans.set(pick, {
        id: plan.id,
        roiBp: centsOf(p.roi),
        days: p.days,
        min: centsOf(p.min),
        max: centsOf(p.max),
        active: pick !== 'closed',
      });
    }
    const act = {
      name: ACT_PLAN.name,
      amount: ACT_PLAN.amount,
      roi_percent: ACT_PLAN.roi,
      duration_days: ACT_PLAN.days,
    };
    const { plan } = await createPlan(world.db, admin, 'activation', v.parse(actPlanInputSchema, act));
    const price = centsOf(ACT_PLAN.amount);
    state.plans.set('act', {
      id: plan.id,
      roiBp: centsOf(ACT_PLAN.roi),
      days: ACT_PLAN.days,
      min: price,
      max: price,
      active: true,
    });
    const percents = (bps: number[]) =>
      v.parse(levelPercentsInputSchema, { percents: bps.map((bp) => (bp / 100).toFixed(2)) }).percents;
    await setLevelPercents(world.db, admin, 'active', percents(ACTIVATION_LEVELS));
    await setLevelPercents(world.db, admin, 'invest', percents(ROI_LEVELS));
    // The members as the world made them (sponsor tree, who is active): the model follows from here.
    const users = await world.db
      .selectFrom('users')
      .select(['id', 'sponsor_id', 'role', 'is_active'])
      .execute();
    for (const u of users)
      state.people.set(u.id, {
        sponsor: u.sponsor_id,
        isUser: u.role === 'user',
        active: u.is_active === 'active',
        activatedAt: 0,
      });
  },

  owner: (world, op) =>
    op.kind === 'topup' || op.kind === 'code-redeem' ? memberAt(world, op.by).id : world.admin.id,

  async send({ world, state }, op, plan) {
    // A long operation crashes anywhere in it, not only in its first statements.
    if (plan.failBefore > 0 && (op.kind === 'income-run' || op.kind === 'income-catchup'))
      plan.failBefore = op.crashAt;
    const admin = await sessionOf(world, world.admin);
    switch (op.kind) {
      case 'topup': {
        const payer = await sessionOf(world, memberAt(world, op.by));
        const beneficiaryId = beneficiaryOf(world, op);
        const answer = await faulty(world, plan, async () => {
          if (op.route !== 'entry') {
            const body = v.parse(topupSelfSchema, { plan_id: planId(state, op.plan), amount: op.amount });
            return payTopup(
              world.db,
              payer,
              {
                type: op.route === 'add' ? 'topup' : 'retopup',
                beneficiaryId: payer.user.id,
                planId: body.plan_id,
                amountCents: body.amount,
              },
              op.key,
            );
          }
          const payerId = op.payerIsOther
            ? memberAt(world, (op.by + 1) % world.members.length).id
            : payer.user.id;
          const body = v.parse(topupEntrySchema, {
            id: beneficiaryId,
            userby_id: payerId,
            plan_id: planId(state, op.plan),
            amount: op.amount,
          });
          // The route's own refusal: the payer must be the signed-in member.
          if (body.userby_id !== payer.user.id) throw forbidden(TOPUP_MESSAGES.notYourAccount);
          return payTopup(
            world.db,
            payer,
            {
              type: body.id === payer.user.id ? 'topup' : 'entry',
              beneficiaryId: body.id,
              planId: body.plan_id,
              amountCents: body.amount,
            },
            op.key,
          );
        });
        return { ...answer, seen: [await withActivation(world, { answer })] };
      }
      case 'code-create':
        return faulty(world, plan, async () => ({
          statusCode: 201,
          body: await createCodes(
            world.db,
            admin,
            v.parse(codeBatchSchema, { plan_id: planId(state, op.plan), amount: op.amount, count: op.count }),
          ),
        }));
      case 'code-redeem': {
        const text = codeText(state, op);
        const redeemers: [Member, string | undefined][] = [[memberAt(world, op.by), op.key]];
        if (op.rival !== undefined)
          redeemers.push([memberAt(world, op.rival), op.key === undefined ? undefined : `${op.key}/rival`]);
        const redeem = async ([who, key]: [Member, string | undefined], k: number) => {
          for (let d = 0; d < k; d++) await new Promise((resolve) => setImmediate(resolve));
          const member = await sessionOf(world, who);
          const answer = await faulty(world, plan, () =>
            redeemCode(world.db, member, v.parse(codeRedeemSchema, { code: text }).code, key),
          );
          return withActivation(world, { answer, code: text.toUpperCase() });
        };
        // At once on SQLite, where the seed decides who wins; one after the other on PostgreSQL, where
        // the server would, so that a seed replays there (docs/simulator.md, Determinism).
        const copies: Copy[] = [];
        if (world.dialect === 'sqlite') copies.push(...(await Promise.all(redeemers.map(redeem))));
        else for (const [k, r] of redeemers.entries()) copies.push(await redeem(r, k));
        const first = copies[0] as Copy;
        return { ...first.answer, seen: copies };
      }
      case 'income-run': {
        const date = typeof op.date === 'number' ? addDays(dateOf(), op.date) : op.date;
        const copies = await copiesOf(world, plan, op.copies, () =>
          answerRun(
            world,
            admin.user.id,
            v.parse(incomeRunSchema, date === undefined ? {} : { date }).date,
            op.chunk,
          ),
        );
        return runAnswer(world, copies, [date]);
      }
      case 'income-catchup': {
        const copies = await copiesOf(world, plan, op.copies, async () => ({
          statusCode: 200,
          body: await catchUpIncome(world.db, { ...runOptions(op.chunk), catchUpDays: CATCH_UP_DAYS }),
        }));
        return runAnswer(world, copies, []);
      }
    }
  },

  resultId: (answer) => (answer.body as TopupBody | undefined)?.topup?.id,
  learnRank: (op) => (op.kind === 'income-run' || op.kind === 'income-catchup' ? 2 : 0),
  summary: (state) => ({
    investments: state.investments.size,
    roiPayments: state.roiPayments,
    levelPayments: state.levelPayments,
    activationPayments: state.activationPayments,
    codesRedeemed: state.redeemed,
    datesSettled: state.completed.size,
  }),

  learn({ world, model, state }, op, answer, ownerKey) {
    state.dirty = true;
    // The process was dropped before the call reached the service (while its client signed in): the
    // simulator saw no answer of the service's, and nothing was done.
    if (answer.crashed && answer.seen === undefined) return undefined;
    switch (op.kind) {
      case 'topup': {
        const [copy] = answer.seen as Copy[];
        if (copy?.answer.status !== 201) return undefined;
        const id = (copy.answer.body as TopupBody).topup?.id ?? '';
        const twice = model.sameKeyOnce(
          ownerKey,
          JSON.stringify([op.route, op.for, op.payerIsOther, op.plan, op.amount]),
          id,
        );
        if (twice) return twice;
        const payer = memberAt(world, op.by).id;
        return learnInvestment(
          model,
          state,
          copy,
          walletAccountId(payer, 'business'),
          beneficiaryOf(world, op),
          {
            planId: planId(state, op.plan),
            cents: v.parse(topupSelfSchema, { plan_id: 'x', amount: op.amount }).amount,
          },
        );
      }
      case 'code-create': {
        if (answer.status !== 201) return undefined;
        const body = answer.body as {
          codes: { id: string; code: string; plan_id: string; amount: string }[];
        };
        for (const c of body.codes)
          state.codes.push({
            id: c.id,
            code: c.code,
            planId: c.plan_id,
            cents: centsOf(c.amount),
            topup: undefined,
          });
        return undefined;
      }
      case 'code-redeem': {
        for (const [k, copy] of (answer.seen as Copy[]).entries()) {
          if (copy.answer.status !== 201) continue;
          const code = state.codes.find((c) => c.code === copy.code);
          const topup = (copy.answer.body as TopupBody).topup;
          if (!code || !topup) return `a code nobody created was redeemed (${copy.code})`;
          if (code.topup !== undefined && code.topup !== topup.id)
            return `the code ${code.code} was redeemed twice (investments ${code.topup} and ${topup.id})`;
          if (code.topup === undefined) state.redeemed += 1;
          code.topup = topup.id;
          const who = memberAt(world, k === 0 ? op.by : (op.rival as number)).id;
          const broken = learnInvestment(model, state, copy, PLATFORM_CODES_ACCOUNT, who, {
            planId: code.planId,
            cents: code.cents,
          });
          if (broken) return broken;
        }
        return undefined;
      }
      case 'income-run':
      case 'income-catchup':
        return learnRun(model, state, op, answer.seen as RunSeen);
    }
  },

  async check({ world, state }: Ctx<IncomeState>) {
    if (!state.dirty) return undefined;
    state.dirty = false;
    // One statement for the four counts: on PostgreSQL each round trip costs more than the count.
    const { rows } = await sql<Record<string, number | string>>`select
      (select count(*) from roi_payments) as roi_payments,
      (select count(*) from level_incomes) as level_incomes,
      (select count(*) from activation_incomes) as activation_incomes,
      (select count(*) from activation_codes where used_by is not null) as used`.execute(world.db);
    const count = (name: string) => Number(rows[0]?.[name]);
    for (const [table, want] of [
      ['roi_payments', state.roiPayments],
      ['level_incomes', state.levelPayments],
      ['activation_incomes', state.activationPayments],
    ] as const) {
      const n = count(table);
      if (n !== want) return `${table} has ${n} rows, but the payments learned account for ${want}`;
    }
    if (count('used') !== state.redeemed)
      return `${count('used')} codes are used, but the redemptions answered account for ${state.redeemed}`;
    return undefined;
  },
};

/** The activation income a successful top-up or redemption wrote, read after it answered. */
async function withActivation(world: World, copy: Copy): Promise<Copy> {
  const id = (copy.answer.body as TopupBody | undefined)?.topup?.id;
  if (copy.answer.status !== 201 || !id) return copy;
  const activation = await observe(world, (db) =>
    db
      .selectFrom('activation_incomes')
      .select(['id', 'user_id', 'level', 'amount_cents'])
      .where('topup_id', '=', id)
      .execute(),
  );
  return { ...copy, activation };
}

/** A new investment (a top-up or a code's): its money, its beneficiary's activation, its activation income. */
function learnInvestment(
  model: Ctx<IncomeState>['model'],
  state: IncomeState,
  copy: Copy,
  payerAccount: string,
  beneficiary: string,
  order: { planId: string; cents: number },
): string | undefined {
  const topup = (copy.answer.body as TopupBody).topup;
  if (!topup) return 'a top-up answered 201 without its investment';
  if (state.investments.has(topup.id)) return undefined; // a replay
  const plan = [...state.plans.values()].find((p) => p.id === order.planId);
  if (!plan) return `an investment in a plan that was never set up (${order.planId})`;
  if (topup.user_id !== beneficiary || centsOf(topup.amount) !== order.cents)
    return `a top-up answered ${topup.user_id} ${topup.amount}, but was asked for ${beneficiary} ${order.cents}`;
  if (!plan.active && payerAccount !== PLATFORM_CODES_ACCOUNT)
    return `an inactive plan was sold (${order.planId})`;
  if (payerAccount !== PLATFORM_CODES_ACCOUNT && (order.cents < plan.min || order.cents > plan.max))
    return `a top-up of ${order.cents} outside its plan's range was sold`;
  const now = Date.now();
  const person = state.people.get(beneficiary);
  if (!person?.isUser) return `a top-up for ${beneficiary}, who is no member, was answered 201`;
  if (!person.active) {
    person.active = true;
    person.activatedAt = now;
  }
  const created = dateOf(new Date(now).toISOString());
  const inv: Investment = {
    id: topup.id,
    owner: beneficiary,
    cents: order.cents,
    roiBp: plan.roiBp,
    days: plan.days,
    cap: Math.floor((order.cents * CAP_BP) / 10_000),
    created,
    end: addDays(created, plan.days - 1),
    learnedAt: now,
    paid: 0,
    daysPaid: 0,
    paidDates: new Set(),
    skip: new Set(),
  };
  // Bought after its first date was settled: that date never pays it (settled in this step: either).
  const settled = state.completed.get(created);
  if (settled !== undefined && settled < now) inv.skip.add(created);
  const seq = state.investments.size;
  state.investments.set(topup.id, inv);
  state.live.add(inv);
  state.lastLearnedAt = now;
  const mine = state.byOwner.get(beneficiary) ?? { list: [], seq: [], sums: [0] };
  mine.list.push(inv);
  mine.seq.push(seq);
  mine.sums.push((mine.sums.at(-1) as number) + inv.cents);
  state.byOwner.set(beneficiary, mine);
  model.move(payerAccount, investedAccountId(beneficiary), order.cents);
  const rows = copy.activation ?? [];
  const broken = levelCheck(
    state,
    beneficiary,
    order.cents,
    ACTIVATION_LEVELS,
    rows,
    `the activation income of ${topup.id}`,
  );
  if (broken) return broken;
  for (const row of rows)
    model.move(PLATFORM.income, walletAccountId(row.user_id, 'working'), Number(row.amount_cents));
  state.activationPayments += rows.length;
  return undefined;
}

/** POST /income/run as the route answers it. */
async function answerRun(world: World, adminId: string, date: string | undefined, chunk: number) {
  return { statusCode: 200, body: await runIncomeByAdmin(world.db, adminId, date, runOptions(chunk)) };
}

/** The copies' answers and what the step's runs paid, as one answer (the first copy's status). */
async function runAnswer(
  world: World,
  copies: (Answer & { crashedOnce?: boolean })[],
  asked: (string | undefined)[],
): Promise<Answer> {
  // A run that paid or found the date paid, if any: which copy it was is the database's scheduling.
  const first = copies.find((c) => c.status === 200) ?? (copies[0] as Answer);
  const paid = await paidNow(world);
  const seen: RunSeen = {
    copies,
    ...paid,
    dates: asked,
    crashed: copies.some((c) => c.crashedOnce || c.crashed),
  };
  return { ...first, seen };
}

type RunBody = { run?: { date: string; investments_paid: number; roi_total: string; level_total: string } };
type CatchUpBody = { runs?: { kind: string; date: string }[] };

/** What a step's runs teach the model: each payment checked against RULES.md, then the settled dates. */
function learnRun(
  model: Ctx<IncomeState>['model'],
  state: IncomeState,
  op: Extract<IncomeOp, { kind: 'income-run' | 'income-catchup' }>,
  seen: RunSeen,
): string | undefined {
  const now = Date.now();
  const today = dateOf(new Date(now).toISOString());
  // The dates the answers say are settled; a future date must be refused.
  const settled = new Set<string>();
  for (const copy of seen.copies) {
    if (op.kind === 'income-run') {
      const asked = seen.dates[0];
      const valid = asked === undefined || isCalendarDate(asked.trim());
      if (copy.status === 200 && (!valid || (asked as string) > today))
        return `a run for ${asked} (today ${today}) was answered 200`;
      if (copy.status === 400 && valid && (asked === undefined || asked <= today))
        return `a run for ${asked} (today ${today}) was refused: ${String(copy.body)}`;
      if (copy.status === 200) settled.add((copy.body as RunBody).run?.date as string);
    } else if (copy.status === 200)
      for (const run of (copy.body as CatchUpBody).runs ?? [])
        if (run.kind === 'paid' || run.kind === 'completed') settled.add(run.date);
  }

  // Each ROI payment: due, once, for RULES.md's amount; largest first per investment (a capped
  // remainder comes last whichever date the step paid first).
  const roiIds = new Set<string>();
  const byDate = new Map<string, number>();
  const rows = [...seen.roi].sort(
    (a, b) => a.topup_id.localeCompare(b.topup_id) || Number(b.amount_cents) - Number(a.amount_cents),
  );
  const levels = new Map<string, LevelRow[]>();
  for (const row of seen.level)
    levels.set(row.roi_payment_id, [...(levels.get(row.roi_payment_id) ?? []), row]);
  for (const row of rows) {
    const inv = state.investments.get(row.topup_id);
    if (!inv) return `ROI was paid on ${row.topup_id}, which no answer created`;
    const before = state.completed.get(row.run_date);
    if (before !== undefined && before < now)
      return `the date ${row.run_date}, paid before, paid ${row.topup_id} again`;
    const why = notDue(inv, row.run_date);
    if (why) return `ROI paid on ${row.topup_id} for ${row.run_date}, but ${why}`;
    const want = Math.min(Math.floor((inv.cents * inv.roiBp) / 10_000), inv.cap - inv.paid);
    if (Number(row.amount_cents) !== want)
      return `ROI of ${row.topup_id} for ${row.run_date} paid ${row.amount_cents}, but RULES.md says ${want} (${inv.cents} at ${inv.roiBp} bp, paid ${inv.paid} on ${[...inv.paidDates].join(' ')})`;
    if (row.user_id !== inv.owner) return `ROI of ${row.topup_id} paid to another member`;
    inv.paid += want;
    inv.daysPaid += 1;
    inv.paidDates.add(row.run_date);
    roiIds.add(row.id);
    byDate.set(row.run_date, (byDate.get(row.run_date) ?? 0) + want);
    model.move(PLATFORM.income, walletAccountId(inv.owner, 'working'), want, row.id);
    state.roiPayments += 1;
    const paid = levels.get(row.id) ?? [];
    const broken = levelCheck(state, inv.owner, want, ROI_LEVELS, paid, `the level income of ${row.id}`);
    if (broken) return broken;
    for (const level of paid)
      model.move(
        PLATFORM.income,
        walletAccountId(level.user_id, 'working'),
        Number(level.amount_cents),
        level.id,
      );
    state.levelPayments += paid.length;
  }
  const orphan = seen.level.find((l) => !roiIds.has(l.roi_payment_id));
  if (orphan) return `level income ${orphan.id} was paid without its ROI payment`;

  // What an answer said it paid is what the ledger shows (when no copy crashed halfway).
  if (op.kind === 'income-run' && !seen.crashed) {
    let said = 0;
    let saidLevel = 0;
    for (const copy of seen.copies) {
      if (copy.status !== 200) continue;
      said += centsOf((copy.body as RunBody).run?.roi_total ?? '0');
      saidLevel += centsOf((copy.body as RunBody).run?.level_total ?? '0');
    }
    const level = seen.level.reduce((sum, l) => sum + Number(l.amount_cents), 0);
    const date = [...settled][0];
    if (date !== undefined && (said !== (byDate.get(date) ?? 0) || saidLevel !== level))
      return `runs of ${date} answered ROI ${said} and level income ${saidLevel}, but the ledger shows ${byDate.get(date) ?? 0} and ${level}`;
  }

  // A date answered as paid paid every investment due on it then; it is final only when it had ended
  // (an investment bought later on an open date is due at the date's next run).
  for (const date of settled) {
    const final = finalAt(date, now);
    if (final && !state.completed.has(date)) state.completed.set(date, now);
    for (const inv of state.live) {
      // Never due again on any date (notDue says so for every date): out of the live set.
      if (finished(inv)) {
        state.live.delete(inv);
        continue;
      }
      if (notDue(inv, date)) continue;
      if (inv.learnedAt === now && inv.created === date) {
        // Bought in the same step as the run: the run may have come first. On a final date it is
        // then never paid; on an open one the date's next run pays it.
        if (final) inv.skip.add(date);
        continue;
      }
      return `the date ${date} is settled, but ${inv.id} (${inv.cents} from ${inv.created}) was not paid for it`;
    }
  }
  return undefined;
}

/**
 * An investment another domain's answer made (a compound request approved: withdrawals.ts), learned as
 * a top-up's is: its money from `payerAccount` into the owner's `invested`, the owner's activation, its
 * activation income (`activation`: the rows the investment wrote), all checked as a top-up's.
 */
export function learnMadeInvestment(
  model: Ctx<IncomeState>['model'],
  incomeState: unknown,
  topup: NonNullable<TopupBody['topup']>,
  activation: (Row & { level: number | string })[],
  payerAccount: string,
  order: { planId: string; cents: number },
): string | undefined {
  const state = incomeState as IncomeState;
  state.dirty = true;
  const copy: Copy = { answer: { status: 201, body: { topup } }, activation };
  return learnInvestment(model, state, copy, payerAccount, topup.user_id, order);
}
