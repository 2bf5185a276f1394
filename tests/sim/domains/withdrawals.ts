import * as v from 'valibot';
import { getAddress } from 'viem';
import {
  sendVerificationCode,
  verifyEmail,
} from '../../../src/server/modules/account/email-verification.service.ts';
import { sendOtp } from '../../../src/server/modules/profile/otp.service.ts';
import { findUserById } from '../../../src/server/modules/users/users.repository.ts';
import { updateMember } from '../../../src/server/modules/users/users.service.ts';
import {
  investedAccountId,
  PLATFORM,
  walletAccountId,
} from '../../../src/server/modules/wallets/ledger.service.ts';
import { adjustBalance } from '../../../src/server/modules/wallets/wallets.service.ts';
import {
  cancelWithdrawal,
  changeCompoundAmount,
  decideWithdrawal,
  recordPayout,
  requestWithdrawal,
} from '../../../src/server/modules/withdrawals/withdrawals.service.ts';
import { dateOf } from '../../../src/shared/dates.ts';
import { memberEditSchema } from '../../../src/shared/member-edit.ts';
import { formatCents, parseCents } from '../../../src/shared/money.ts';
import { otpSendSchema } from '../../../src/shared/profile.ts';
import { TOPUP_MESSAGES } from '../../../src/shared/topups.ts';
import { adjustmentSchema, amountSchema } from '../../../src/shared/wallets.ts';
import {
  compoundAmountSchema,
  compoundWithdrawalSchema,
  incomeWithdrawalSchema,
  WITHDRAWAL_MESSAGES as M,
  principalWithdrawalSchema,
  roiWithdrawalSchema,
  type WithdrawalKind,
  withdrawalDebitSchema,
  withdrawalDecisionSchema,
} from '../../../src/shared/withdrawals.ts';
import { latestMailedCode } from '../../helpers/mailed-codes.ts';
import { type FaultPlan, InjectedFault } from '../fault-plugin.ts';
import type { Rng } from '../prng.ts';
import {
  type Answer,
  amountInput,
  type Ctx,
  type Domain,
  faulty,
  type Member,
  type Model,
  memberAt,
  type OpBase,
  observe,
  sessionOf,
  type World,
} from '../world.ts';
import { learnMadeInvestment } from './income.ts';

// Withdrawals (RULES.md "Withdrawals (money out)"), all four kinds, each held whole at once and decided
// exactly once:
// - income (`/withdrawalrequest/add`): from Income Working, at least 10.00, a 5% fee;
// - ROI (`/add/roiwithdrawal`): the ROI one investment has paid and no pending or approved ROI request
//   has taken yet, from Income Working, at least 10.00, a 5% fee;
// - principal (`/add/principle`): the whole principal of a matured investment (past its last ROI day,
//   or closed early by its duration or the 200% cap), from its owner's `invested` account, a 5% fee,
//   once per investment;
// - compound (`/addcompoundwithdrawal`, `PUT /compound/amount`): Income Working money held for a new
//   investment in an active plan (its minimum and maximum apply), no fee, no payout address; approving
//   it releases the hold and buys the investment (learned as the income domain learns a top-up).
// Each request needs a verified e-mail, a fresh e-mailed code read from the outbox and (but compound) a
// payout address an admin set; a member has at most one open request. The admin approves (with the
// payout's hash: net to `withdrawals paid`, the fee to `fees`) or rejects (the hold voided), by the
// generic call or the kind's own (which refuses another kind's request: 404); the member cancels; the
// member changes a pending compound's amount (its hold is replaced). Also decisions naming the wrong
// amount or member, two at once, on decided or cancelled requests, and the admin's record of a payout
// made outside a request. Requests name investments the income domain's model knows (ROI paid, matured
// or not), another member's, or none, with amounts against what the rules allow, over it and under it.

type CodeChoice = 'fresh' | 'last' | 'wrong';
/**
 * An amount picked, when the operation runs, against what the model knows (ROI left, the plan's range,
 * the wallet's available money), or a raw input from the seed.
 */
type AmountPick = 'all' | 'part' | 'over' | 'min' | 'below' | 'max' | 'above' | 'fit' | 'same' | 'huge';
type Amount = AmountPick | { raw: unknown };
type PlanPick = 'basic' | 'fast' | 'half' | 'act' | 'closed' | 'bogus';
type Which = 'open' | 'any' | 'bogus';

export type WithdrawalOp =
  | {
      kind: 'wd-request';
      by: number;
      body: { amount: unknown; network?: unknown };
      /** The code sent: a fresh one from the mail, the one used last time, or a wrong one. */
      code: CodeChoice;
    }
  | {
      kind: 'wd-roi';
      by: number;
      pick: number;
      /** The member's own investment (one with ROI left, when there is one), another's, or none. */
      target: 'own' | 'other' | 'unknown';
      amount: Amount;
      /** Percent of the ROI left, for `part`. */
      share: number;
      network?: unknown;
      code: CodeChoice;
    }
  | {
      kind: 'wd-principal';
      by: number;
      pick: number;
      target: 'matured' | 'young' | 'taken' | 'other' | 'unknown';
      network?: unknown;
      code: CodeChoice;
    }
  | {
      kind: 'wd-compound';
      by: number;
      plan: PlanPick;
      amount: Amount;
      /** Percent of Income Working's available money, for `fit`. */
      share: number;
      code: CodeChoice;
    }
  | {
      kind: 'wd-compound-amount';
      pick: number;
      which: Which;
      /** Sent by the request's owner, or by member `by`. */
      asOwner: boolean;
      by: number;
      amount: Amount;
      share: number;
    }
  | {
      kind: 'wd-decide';
      pick: number;
      which: Which;
      /** The call: the request kind's own, the generic one, or another kind's (a 404). */
      route: 'match' | 'any' | 'wrong';
      body: { status: unknown; tx_hash?: unknown; reason?: unknown };
      /** What the decision names wrongly, if anything (a 409). */
      wrong: 'none' | 'amount' | 'user';
    }
  | { kind: 'wd-cancel'; pick: number; which: Which; asOwner: boolean; by: number }
  | { kind: 'wd-payout'; member: number; body: { amount: unknown; tx_hash: unknown; reason: unknown } };

type Status = 'pending' | 'approved' | 'rejected' | 'cancelled';
type Request = {
  id: string;
  userId: string;
  kind: WithdrawalKind;
  cents: number;
  fee: number;
  net: number;
  status: Status;
  topupId: string | null;
  planId: string | null;
  /** The simulated instant it left pending (0 while it is pending). */
  closedAt: number;
  /** The instant its answer was learned: the month a principal request counts against new business in. */
  openedAt: number;
  /** The completion order of the amount change learned last (compound). */
  changeSeq: number;
};

/** What a request or change names, resolved once per operation (a resend under its key sends the same). */
type Resolved =
  | { kind: 'roi'; topupId: string; amount: unknown; cents: number | undefined }
  | { kind: 'principal'; topupId: string }
  | { kind: 'compound'; planId: string; amount: unknown; cents: number | undefined }
  | { kind: 'change'; id: string; sender: string; amount: unknown; cents: number | undefined };

/** The income domain's model, as read here (income.ts owns it: read only, never written). */
type PlanView = { id: string; min: number; max: number; active: boolean };
type InvestmentView = {
  id: string;
  owner: string;
  cents: number;
  days: number;
  cap: number;
  end: string;
  paid: number;
  daysPaid: number;
};
type IncomeView = {
  plans: Map<string, PlanView>;
  investments: Map<string, InvestmentView>;
  /** Each owner's investments in the order learned (income.ts). */
  byOwner: Map<string, { list: readonly InvestmentView[] }>;
  /** The activation codes made, with the investment each became (every one promotional: the default). */
  codes: { topup: string | undefined }[];
};

/** Paid by an activation code: the sim makes promotional codes only, whose principal is never paid out. */
const codeFunded = (model: Model, topupId: string) =>
  incomeOf(model).codes.some((code) => code.topup === topupId);

type WithdrawalsState = {
  requests: Map<string, Request>;
  /** Request ids in the order they were answered: what a decision or cancel picks from. */
  order: string[];
  /** No request before this place in `order` is pending (where the search for open ones starts). */
  openFrom: number;
  /** Pending request ids. */
  pending: Set<string>;
  /** ROI and principal requests by the investment they name. */
  byTopup: Map<string, Request[]>;
  /** The code each member used last, and the code each key's request carries (a retry resends it). */
  lastCode: Map<number, string>;
  codes: Map<string, string>;
  resolved: Map<string, Resolved>;
  resolvedOp: WeakMap<object, Resolved>;
  /** The investment a ROI or principal request names, as the model knew it before the step. */
  before: WeakMap<object, { paid: number; matured: boolean }>;
  /** Amount changes in flight, by request: one at a time (the member's screen sends one). */
  changing: Map<string, Promise<void>>;
  changeSeq: WeakMap<object, number>;
  seq: number;
  /** Keys of amount changes learned (a replay changes nothing). */
  applied: Set<string>;
  /** What the step changed, for the step check: requests, and investments named by requests. */
  changed: Set<string>;
  topups: Set<string>;
  /** Judgements that need every answer of the step learned first. */
  deferred: (() => string | undefined)[];
  dirty: boolean;
  decided: number;
  counts: {
    roi: number;
    roiApproved: number;
    principal: number;
    principalApproved: number;
    compound: number;
    invested: number;
    changes: number;
  };
};

/** Funding of each member's Income Working at the start, in cents. */
const FUNDING_CENTS = 50_000;
/** RULES.md: the minimum of an income or ROI withdrawal. */
const MINIMUM_CENTS = 1_000;
const UNKNOWN_ID = '00000000-0000-4000-8000-0000000000aa';
const REQUEST_KINDS: Record<string, WithdrawalKind> = {
  'wd-request': 'income',
  'wd-roi': 'roi',
  'wd-principal': 'principal',
  'wd-compound': 'compound',
};

/** Member i's BEP20 payout address (the last but one member has none saved). */
export const payoutAddressOf = (i: number) =>
  getAddress(`0x${(0xa11ce000 + i).toString(16).padStart(40, '0')}`);
/** Members without a verified e-mail or a payout address: their requests are refused. */
export const unverified = (world: World, i: number) => i === world.members.length - 1;
export const addressless = (world: World, i: number) => i === world.members.length - 2;

/** RULES.md: the fee is 5% of the amount, rounded to the nearest cent (half up); a compound has none. */
const feeOf = (cents: number, kind: WithdrawalKind = 'income') =>
  kind === 'compound' ? 0 : Math.floor((cents * 5 + 50) / 100);
/** An amount as the API writes it ("12.34"), in cents. */
export const centsOf = (text: string) => parseCents(text) ?? Number.NaN;
/** A transaction hash from the seed. */
export const txHash = (r: Rng) =>
  `0x${Array.from({ length: 8 }, () => r.int(0, 0xffffffff).toString(16).padStart(8, '0')).join('')}`;

const incomeOf = (model: Model) => model.states.get('income') as IncomeView;
const today = () => dateOf(new Date().toISOString());
const working = (userId: string) => walletAccountId(userId, 'working');
/** The account a request's money is held in and paid from. */
const sourceOf = (r: { kind: WithdrawalKind; userId: string }) =>
  r.kind === 'principal' ? investedAccountId(r.userId) : working(r.userId);
const available = (model: Model, account: string) =>
  (model.balance.get(account) ?? 0) - (model.held.get(account) ?? 0);
const clamp = (cents: number, min: number, max: number) => Math.min(Math.max(cents, min), max);
const pickFrom = <T>(items: readonly T[], pick: number): T | undefined =>
  items.length > 0 ? items[pick % items.length] : undefined;
/** The amount an API call carries, in cents, if the route's schema takes it. */
const parsedAmount = (amount: unknown): number | undefined => {
  const parsed = v.safeParse(amountSchema, amount);
  return parsed.success ? parsed.output : undefined;
};

/**
 * RULES.md: an investment's principal can be withdrawn once it has matured: after its last ROI day, or
 * when it has earned for its whole duration or reached the 200% cap, whichever comes first.
 */
const matured = (inv: InvestmentView, date: string) =>
  inv.end < date || inv.daysPaid >= inv.days || inv.paid >= inv.cap;

/** Requests on an investment that take from it: pending or approved (of one kind). */
const takenOf = (
  state: WithdrawalsState,
  topupId: string,
  kind: 'roi' | 'principal',
  alsoClosedAt?: number,
) =>
  (state.byTopup.get(topupId) ?? []).filter(
    (r) =>
      r.kind === kind &&
      (r.status === 'pending' ||
        r.status === 'approved' ||
        (alsoClosedAt !== undefined && r.closedAt === alsoClosedAt)),
  );
const sumOf = (requests: Request[]) => requests.reduce((sum, r) => sum + r.cents, 0);
/** RULES.md: the ROI an investment has paid that no pending or approved ROI request has taken. */
const roiLeft = (state: WithdrawalsState, inv: InvestmentView) =>
  inv.paid - sumOf(takenOf(state, inv.id, 'roi'));
const principalTaken = (state: WithdrawalsState, inv: InvestmentView) =>
  takenOf(state, inv.id, 'principal').length > 0;

function target(
  state: WithdrawalsState,
  pick: number,
  which: Which,
  kind?: WithdrawalKind,
): Request | undefined {
  if (which === 'bogus') return undefined;
  if (which !== 'open')
    return state.order.length > 0
      ? state.requests.get(state.order[pick % state.order.length] as string)
      : undefined;
  // Open: one of the oldest three (the queue's head, so that decisions at once often name the same).
  // A request never becomes pending again, so the search starts past the oldest that is not pending.
  const isPending = (id: string | undefined) =>
    id !== undefined && state.requests.get(id)?.status === 'pending';
  while (state.openFrom < state.order.length && !isPending(state.order[state.openFrom])) state.openFrom += 1;
  const ids: string[] = [];
  for (let k = state.openFrom; k < state.order.length && ids.length < 3; k++) {
    const id = state.order[k] as string;
    if (isPending(id) && (kind === undefined || state.requests.get(id)?.kind === kind)) ids.push(id);
  }
  return ids.length > 0 ? state.requests.get(ids[pick % ids.length] as string) : undefined;
}

/** An amount for a plan's range, in cents (`fit`: a share of what is available, within the range). */
function planAmount(
  amount: AmountPick,
  plan: { min: number; max: number },
  free: number,
  share: number,
  now: number,
) {
  switch (amount) {
    case 'min':
      return plan.min;
    case 'max':
      return plan.max;
    case 'below':
      return plan.min - 1;
    case 'above':
      return plan.max + 1;
    case 'same':
      return now;
    case 'huge':
      return Math.min(plan.max, free + 1);
    default:
      return clamp(Math.floor((free * share) / 100), plan.min, plan.max);
  }
}

/** What a ROI, principal or compound request, or an amount change, names: resolved against the model now. */
function resolve(c: Ctx<WithdrawalsState>, op: WithdrawalOp): Resolved | undefined {
  const { world, model, state } = c;
  const income = incomeOf(model);
  // A member's own from the owner's list (in the order learned, as a pass over all would give them);
  // the others' only when asked for.
  const ownOf = (me: string) => income.byOwner.get(me)?.list ?? [];
  const othersOf = (me: string) => [...income.investments.values()].filter((i) => i.owner !== me);
  const raw = (amount: Amount, cents: number) =>
    typeof amount === 'object' ? amount.raw : formatCents(Math.max(cents, 0));
  switch (op.kind) {
    case 'wd-roi': {
      const me = memberAt(world, op.by).id;
      const own = ownOf(me);
      const rich = own.filter((i) => roiLeft(state, i) >= MINIMUM_CENTS);
      const inv =
        op.target === 'own'
          ? pickFrom(rich.length > 0 ? rich : own, op.pick)
          : op.target === 'other'
            ? pickFrom(othersOf(me), op.pick)
            : undefined;
      const left = inv ? roiLeft(state, inv) : 0;
      const amounts: Record<string, number> = {
        all: left,
        part: Math.max(MINIMUM_CENTS, Math.floor((left * op.share) / 100)),
        over: left + 1 + (op.pick % 500),
        min: MINIMUM_CENTS,
        below: MINIMUM_CENTS - 1,
      };
      const cents = typeof op.amount === 'object' ? undefined : (amounts[op.amount] ?? left);
      const amount = raw(op.amount, cents ?? 0);
      return { kind: 'roi', topupId: inv?.id ?? UNKNOWN_ID, amount, cents: parsedAmount(amount) };
    }
    case 'wd-principal': {
      const me = memberAt(world, op.by).id;
      const own = ownOf(me);
      const date = today();
      const pool =
        op.target === 'matured'
          ? own.filter((i) => matured(i, date) && !principalTaken(state, i))
          : op.target === 'young'
            ? own.filter((i) => !matured(i, date))
            : op.target === 'taken'
              ? own.filter((i) => principalTaken(state, i))
              : op.target === 'other'
                ? othersOf(me)
                : [];
      const fallback = op.target === 'other' || op.target === 'unknown' ? pool : own;
      const inv = pickFrom(pool.length > 0 ? pool : fallback, op.pick);
      return { kind: 'principal', topupId: inv?.id ?? UNKNOWN_ID };
    }
    case 'wd-compound': {
      const plan = income.plans.get(op.plan);
      const range = plan ?? { min: 1_000, max: 100_000 };
      const me = memberAt(world, op.by).id;
      const cents =
        typeof op.amount === 'object'
          ? 0
          : planAmount(op.amount, range, available(model, working(me)), op.share, range.min);
      const amount = raw(op.amount, cents);
      return { kind: 'compound', planId: plan?.id ?? UNKNOWN_ID, amount, cents: parsedAmount(amount) };
    }
    case 'wd-compound-amount': {
      // Open: a pending compound (else another pending request, whose amount cannot change).
      const request =
        op.which === 'open'
          ? (target(state, op.pick, 'open', 'compound') ?? target(state, op.pick, 'open'))
          : target(state, op.pick, op.which);
      const sender = op.asOwner && request ? request.userId : memberAt(world, op.by).id;
      const plan = [...income.plans.values()].find((p) => p.id === request?.planId) ?? {
        min: 1_000,
        max: 100_000,
      };
      // The money the request holds is released first, so it counts as available.
      const held = request?.status === 'pending' ? request.cents : 0;
      const free = request ? available(model, working(request.userId)) + held : 0;
      const cents =
        typeof op.amount === 'object'
          ? 0
          : planAmount(op.amount, plan, free, op.share, request?.cents ?? plan.min);
      const amount = raw(op.amount, cents);
      return { kind: 'change', id: request?.id ?? UNKNOWN_ID, sender, amount, cents: parsedAmount(amount) };
    }
    default:
      return undefined;
  }
}

/** The code a request carries: read from the member's mail after asking for one, or not. */
async function codeFor(
  c: Ctx<WithdrawalsState>,
  op: { kind: string; by: number; code: CodeChoice; key?: string },
) {
  const { world, state } = c;
  const cacheKey = op.key ? `${op.by}|${op.key}` : undefined;
  const cached = cacheKey ? state.codes.get(cacheKey) : undefined;
  if (cached) return cached;
  const member = await sessionOf(world, memberAt(world, op.by));
  const email = member.user.email;
  if (op.code === 'fresh') {
    try {
      await sendOtp(
        world.db,
        member,
        v.parse(otpSendSchema, { userId: member.user.id, email, purpose: 'withdrawal' }),
        `10.7.0.${op.by + 1}`,
      );
    } catch (error) {
      // A dropped process: the member's call fails (a retry asks again).
      if (error instanceof InjectedFault) throw error;
      // 429 past five codes an hour: the member sends the code they have.
    }
  }
  const latest = (await latestMailedCode(world.db, email)) ?? '000000';
  const code =
    op.code === 'wrong'
      ? `${(Number(latest[0]) + 1) % 10}${latest.slice(1)}`
      : op.code === 'last'
        ? (state.lastCode.get(op.by) ?? latest)
        : latest;
  state.lastCode.set(op.by, code);
  if (cacheKey) state.codes.set(cacheKey, code);
  return code;
}

/** The route a decision goes to: the kinds it decides (undefined: any, the generic call). */
function routeKinds(
  route: 'match' | 'any' | 'wrong',
  request: Request | undefined,
): readonly WithdrawalKind[] | undefined {
  if (!request || route === 'any') return undefined;
  if (route === 'match') return request.kind === 'income' ? undefined : [request.kind];
  return [request.kind === 'roi' ? 'principal' : request.kind === 'compound' ? 'roi' : 'compound'];
}

type TopupSeen = { id: string; user_id: string; amount: string; plan_id: string; created_at: string };
type DecideSeen = {
  kinds: readonly WithdrawalKind[] | undefined;
  /** The investment an approved compound made, and its activation income, read after the answer. */
  topups?: TopupSeen[];
  activation?: { id: string; user_id: string; level: number | string; amount_cents: number | string }[];
};

type WithdrawalBody = {
  id: string;
  kind: WithdrawalKind;
  status: string;
  amount: string;
  fee: string;
  net_amount: string;
  user_id: string;
  topup_id: string | null;
  plan_id: string | null;
  address: string | null;
  decided_at: string | null;
};

/** An approved compound's investment: bought from its owner's Income Working at the decision's instant. */
async function madeInvestment(
  world: World,
  w: WithdrawalBody,
): Promise<Pick<DecideSeen, 'topups' | 'activation'>> {
  return observe(world, async (db) => {
    const rows = await db
      .selectFrom('topups as t')
      .innerJoin('ledger_transfers as l', 'l.id', 't.ledger_transfer_id')
      .select(['t.id', 't.user_id', 't.amount_cents', 't.plan_id', 't.created_at'])
      .where('t.user_id', '=', w.user_id)
      .where('t.created_at', '=', w.decided_at ?? '')
      .where('l.debit_account_id', '=', working(w.user_id))
      .execute();
    const topups = rows.map((t) => ({
      id: t.id,
      user_id: t.user_id,
      amount: formatCents(Number(t.amount_cents)),
      plan_id: t.plan_id,
      created_at: t.created_at,
    }));
    const activation =
      topups.length === 1
        ? await db
            .selectFrom('activation_incomes')
            .select(['id', 'user_id', 'level', 'amount_cents'])
            .where('topup_id', '=', (topups[0] as TopupSeen).id)
            .execute()
        : [];
    return { topups, activation };
  });
}

/** Marks a request (and the investment it names) as changed by the step. */
function touch(state: WithdrawalsState, request: Request) {
  state.changed.add(request.id);
  if (request.topupId) state.topups.add(request.topupId);
}

/** A request leaves pending: its holds are posted (approved) or voided (rejected, cancelled). */
function close(model: Model, state: WithdrawalsState, request: Request, status: Status) {
  request.status = status;
  request.closedAt = Date.now();
  state.pending.delete(request.id);
  touch(state, request);
  const source = sourceOf(request);
  model.add(model.held, source, -request.cents);
  // A compound's approval voids its hold too: the money then buys the investment (learned apart).
  if (status === 'approved' && request.kind !== 'compound') {
    model.move(source, PLATFORM.withdrawals, request.net);
    if (request.fee > 0) model.move(source, PLATFORM.fees, request.fee);
  } else model.rows += request.fee > 0 ? 2 : 1;
}

/** A new request answered 201 (or a payout recorded): checked against RULES.md, then held or paid. */
function learnRequest(
  c: Ctx<WithdrawalsState>,
  op: Extract<WithdrawalOp, { kind: 'wd-request' | 'wd-roi' | 'wd-principal' | 'wd-compound' | 'wd-payout' }>,
  w: WithdrawalBody,
  answer: Answer,
  resolved: Resolved | undefined,
): string | undefined {
  const { world, model, state } = c;
  if (state.requests.has(w.id)) return undefined; // a replay
  const by = op.kind === 'wd-payout' ? op.member : op.by;
  const userId = memberAt(world, by).id;
  const kind = op.kind === 'wd-payout' ? 'income' : (REQUEST_KINDS[op.kind] as WithdrawalKind);
  const cents = centsOf(w.amount);
  if (w.user_id !== userId) return `a withdrawal for ${userId} was made for ${w.user_id}`;
  if (w.kind !== kind) return `a ${kind} request was stored as ${w.kind}`;
  if (op.kind !== 'wd-payout') {
    if (unverified(world, by)) return `a member whose e-mail is not verified was answered ${answer.status}`;
    if (kind !== 'compound' && addressless(world, by))
      return `a member without a payout address was answered ${answer.status} for a ${kind} withdrawal`;
    if (kind === 'compound' && w.address !== null) return `a compound request names a payout address`;
  }
  let topupId: string | null = null;
  let planId: string | null = null;
  if (kind === 'income') {
    const asked = (op as Extract<WithdrawalOp, { kind: 'wd-request' | 'wd-payout' }>).body.amount;
    if (cents < MINIMUM_CENTS)
      return `a withdrawal of ${w.amount}, below the minimum 10.00, was answered ${answer.status}`;
    if (typeof asked === 'string' && centsOf(asked) !== cents)
      return `a withdrawal of ${String(asked)} was made for ${w.amount}`;
  } else if (resolved?.kind === 'roi' || resolved?.kind === 'principal') {
    const inv = incomeOf(model).investments.get(resolved.topupId);
    topupId = resolved.topupId;
    if (w.topup_id !== topupId) return `a ${kind} request for ${topupId} was stored for ${w.topup_id}`;
    if (!inv || inv.owner !== userId)
      return `a ${kind} withdrawal of investment ${topupId}, not ${userId}'s, was answered ${answer.status}`;
    if (resolved.kind === 'roi') {
      if (resolved.cents !== cents)
        return `a ROI withdrawal of ${String(resolved.amount)} was made for ${w.amount}`;
      if (cents < MINIMUM_CENTS)
        return `a ROI withdrawal of ${w.amount}, below the minimum 10.00, was answered ${answer.status}`;
      // Any other pending request of the member fails the one-open rule below; approved ones stay taken.
      const left = inv.paid - sumOf(takenOf(state, topupId, 'roi'));
      if (cents > left)
        return `a ROI withdrawal of ${w.amount} from ${topupId} was answered ${answer.status}, but it has paid ${inv.paid} and ${inv.paid - left} is taken: ${left} left`;
    } else {
      const taken = takenOf(state, topupId, 'principal')[0];
      if (taken)
        return `the principal of ${topupId} was withdrawn twice (${taken.id} ${taken.status}, ${w.id})`;
      if (!matured(inv, today()))
        return `the principal of ${topupId}, not matured (last ROI day ${inv.end}, ${inv.daysPaid} of ${inv.days} days paid, ${inv.paid} of the cap ${inv.cap}), was answered ${answer.status}`;
      if (cents !== inv.cents)
        return `the principal of ${topupId} (${inv.cents}) was requested as ${w.amount}`;
      if (codeFunded(model, topupId))
        return `the principal of ${topupId}, paid by a promotional activation code, was answered ${answer.status}`;
    }
  } else if (resolved?.kind === 'compound') {
    planId = resolved.planId;
    const plan = [...incomeOf(model).plans.values()].find((p) => p.id === planId);
    if (w.plan_id !== planId) return `a compound into ${planId} was stored for ${w.plan_id}`;
    if (resolved.cents !== cents) return `a compound of ${String(resolved.amount)} was made for ${w.amount}`;
    if (!plan?.active)
      return `a compound into a plan that is not open (${planId}) was answered ${answer.status}`;
    if (cents < plan.min || cents > plan.max)
      return `a compound of ${w.amount}, outside its plan's ${plan.min} to ${plan.max}, was answered ${answer.status}`;
  }
  const fee = feeOf(cents, kind);
  if (centsOf(w.fee) !== fee || centsOf(w.net_amount) !== cents - fee)
    return `a ${kind} withdrawal of ${w.amount} has fee ${w.fee} and net ${w.net_amount}; RULES.md makes the fee ${fee}`;
  const request: Request = {
    id: w.id,
    userId,
    kind,
    cents,
    fee,
    net: cents - fee,
    status: w.status as Status,
    topupId,
    planId,
    closedAt: 0,
    openedAt: Date.now(),
    changeSeq: 0,
  };
  const source = sourceOf(request);
  if (op.kind === 'wd-payout') {
    if (w.status !== 'approved') return `a recorded payout is ${w.status}`;
    model.move(source, PLATFORM.withdrawals, cents - fee);
    model.move(source, PLATFORM.fees, fee);
    request.closedAt = Date.now();
  } else {
    const open = [...state.pending].find((id) => state.requests.get(id)?.userId === userId);
    if (open) return `member ${userId} has two open withdrawal requests (${open}, ${w.id})`;
    if (w.status !== 'pending') return `a new request is ${w.status}`;
    // Held whole at once: the net and the fee, each a pending transfer (a compound: one, no fee).
    model.rows += fee > 0 ? 2 : 1;
    model.add(model.held, source, cents);
    state.pending.add(w.id);
    if (kind === 'roi') state.counts.roi += 1;
    if (kind === 'principal') state.counts.principal += 1;
    if (kind === 'compound') state.counts.compound += 1;
  }
  state.requests.set(w.id, request);
  state.order.push(w.id);
  if (topupId) state.byTopup.set(topupId, [...(state.byTopup.get(topupId) ?? []), request]);
  touch(state, request);
  return undefined;
}

/** A refused ROI, principal or compound request, against what RULES.md allows. */
function judgeRefusal(
  c: Ctx<WithdrawalsState>,
  op: Extract<WithdrawalOp, { kind: 'wd-roi' | 'wd-principal' | 'wd-compound' }>,
  answer: Answer,
  resolved: Resolved | undefined,
): string | undefined {
  const { world, model, state } = c;
  const message = typeof answer.body === 'string' ? answer.body : '';
  const userId = memberAt(world, op.by).id;
  const income = incomeOf(model);
  const said = `${op.kind} answered ${answer.status} (${message})`;
  if (resolved?.kind === 'roi' || resolved?.kind === 'principal') {
    const inv = income.investments.get(resolved.topupId);
    const own = inv?.owner === userId;
    if (answer.status === 404 && message === M.investmentNotFound && own)
      return `${said} for the member's own investment ${resolved.topupId}`;
    if (!own) return undefined;
    const before = state.before.get(op as object);
    const now = Date.now();
    if (
      resolved.kind === 'roi' &&
      message.startsWith('This investment has $') &&
      resolved.cents !== undefined
    ) {
      // Taken at most: pending and approved ROI requests, and those closed in this step (maybe after).
      const taken = sumOf(takenOf(state, resolved.topupId, 'roi', now));
      const left = (before?.paid ?? 0) - taken;
      if (resolved.cents >= MINIMUM_CENTS && resolved.cents <= left)
        return `${said}: ${resolved.cents} of the ${left} left of ROI paid ${before?.paid} (taken ${taken})`;
    }
    if (resolved.kind === 'principal' && inv) {
      if (message === M.notMatured && before?.matured)
        return `${said}, but ${inv.id} matured (last ROI day ${inv.end}, ${inv.daysPaid} of ${inv.days} days, ${inv.paid} of the cap ${inv.cap})`;
      if (message === M.principalTaken && takenOf(state, inv.id, 'principal', now).length === 0)
        return `${said}, but no request has taken the principal of ${inv.id}`;
      if (message === M.principalPromotional && !codeFunded(model, inv.id))
        return `${said}, but ${inv.id} was not paid by an activation code`;
    }
  }
  if (resolved?.kind === 'compound') {
    const plan = [...income.plans.values()].find((p) => p.id === resolved.planId);
    if (plan && message === TOPUP_MESSAGES.planNotFound) return `${said} for the plan ${plan.id}`;
    if (plan?.active && message === TOPUP_MESSAGES.planInactive) return `${said}, but the plan is open`;
    const inRange =
      plan !== undefined &&
      resolved.cents !== undefined &&
      resolved.cents >= plan.min &&
      resolved.cents <= plan.max;
    if (inRange && message === TOPUP_MESSAGES.amountRange(formatCents(plan.min), formatCents(plan.max)))
      return `${said}, but ${resolved.cents} is within the plan's range`;
  }
  return undefined;
}

/** An amount change answered 200: the hold follows the new amount (its completion order decides). */
function learnChange(
  c: Ctx<WithdrawalsState>,
  answer: Answer,
  w: WithdrawalBody,
  resolved: Extract<Resolved, { kind: 'change' }>,
  ownerKey: string | undefined,
): string | undefined {
  const { model, state } = c;
  const request = state.requests.get(w.id);
  if (!request) return `an amount change answered ${answer.status} for ${w.id}, a request never answered for`;
  if (ownerKey && state.applied.has(`${ownerKey}|${w.id}`)) return undefined; // a replay
  if (request.userId !== resolved.sender)
    return `member ${resolved.sender} changed another member's request ${w.id}`;
  if (request.kind !== 'compound') return `the amount of a ${request.kind} request was changed`;
  if (request.status !== 'pending')
    return `the amount of withdrawal ${w.id}, ${request.status}, was changed (answered ${answer.status})`;
  const cents = centsOf(w.amount);
  const plan = [...incomeOf(model).plans.values()].find((p) => p.id === request.planId);
  if (cents !== resolved.cents) return `an amount change to ${String(resolved.amount)} made it ${w.amount}`;
  if (!plan || cents < plan.min || cents > plan.max)
    return `a compound's amount was changed to ${w.amount}, outside its plan's range`;
  if (w.status !== 'pending' || centsOf(w.fee) !== 0 || centsOf(w.net_amount) !== cents)
    return `a changed compound is ${w.status} with fee ${w.fee} and net ${w.net_amount}`;
  if (ownerKey) state.applied.add(`${ownerKey}|${w.id}`);
  // The old hold voided, a new one made: two rows. Of two changes in one step, the later one stands.
  model.rows += 2;
  const seq = typeof answer.seen === 'number' ? answer.seen : 0;
  if (seq >= request.changeSeq) {
    model.add(model.held, working(request.userId), cents - request.cents);
    request.cents = cents;
    request.net = cents;
    request.changeSeq = seq;
  }
  state.counts.changes += 1;
  touch(state, request);
  return undefined;
}

/** Sends an operation once, as the client would. */
async function sendOnce(
  c: Ctx<WithdrawalsState>,
  op: OpBase & WithdrawalOp,
  plan: FaultPlan,
): Promise<Answer> {
  const { world, state } = c;
  const resolved = state.resolvedOp.get(op);
  switch (op.kind) {
    case 'wd-request': {
      const otp = await codeFor(c, op);
      const member = await sessionOf(world, memberAt(world, op.by));
      return faulty(world, plan, async () => {
        const input = v.parse(incomeWithdrawalSchema, { ...op.body, otp });
        return requestWithdrawal(
          world.db,
          member,
          {
            kind: 'income',
            otp: input.otp,
            amountCents: input.amount,
            ...(input.network ? { network: input.network } : {}),
          },
          op.key,
        );
      });
    }
    case 'wd-roi': {
      const otp = await codeFor(c, op);
      const member = await sessionOf(world, memberAt(world, op.by));
      const body = resolved as Extract<Resolved, { kind: 'roi' }>;
      return faulty(world, plan, async () => {
        const input = v.parse(roiWithdrawalSchema, {
          amount: body.amount,
          otp,
          topup_id: body.topupId,
          ...(op.network !== undefined ? { network: op.network } : {}),
        });
        return requestWithdrawal(
          world.db,
          member,
          {
            kind: 'roi',
            otp: input.otp,
            amountCents: input.amount,
            topupId: input.topup_id,
            ...(input.network ? { network: input.network } : {}),
          },
          op.key,
        );
      });
    }
    case 'wd-principal': {
      const otp = await codeFor(c, op);
      const member = await sessionOf(world, memberAt(world, op.by));
      const body = resolved as Extract<Resolved, { kind: 'principal' }>;
      return faulty(world, plan, async () => {
        const input = v.parse(principalWithdrawalSchema, {
          otp,
          topup_id: body.topupId,
          ...(op.network !== undefined ? { network: op.network } : {}),
        });
        return requestWithdrawal(
          world.db,
          member,
          {
            kind: 'principal',
            otp: input.otp,
            topupId: input.topup_id,
            ...(input.network ? { network: input.network } : {}),
          },
          op.key,
        );
      });
    }
    case 'wd-compound': {
      const otp = await codeFor(c, op);
      const member = await sessionOf(world, memberAt(world, op.by));
      const body = resolved as Extract<Resolved, { kind: 'compound' }>;
      return faulty(world, plan, async () => {
        const input = v.parse(compoundWithdrawalSchema, { amount: body.amount, otp, plan_id: body.planId });
        return requestWithdrawal(
          world.db,
          member,
          { kind: 'compound', otp: input.otp, amountCents: input.amount, planId: input.plan_id },
          op.key,
        );
      });
    }
    case 'wd-compound-amount': {
      const body = resolved as Extract<Resolved, { kind: 'change' }>;
      const sender = world.members.find((m) => m.id === body.sender) as Member;
      const member = await sessionOf(world, sender);
      // One change of a request at a time, in the order they are sent; each numbered as it completes.
      const prior = state.changing.get(body.id) ?? Promise.resolve();
      let release = () => {};
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      const chained = prior.then(() => mine);
      state.changing.set(body.id, chained);
      await prior;
      try {
        const answer = await faulty(world, plan, () =>
          changeCompoundAmount(
            world.db,
            member,
            v.parse(compoundAmountSchema, { id: body.id, amount: body.amount }),
            op.key,
          ),
        );
        if (answer.status === 200 && !state.changeSeq.has(op)) {
          state.seq += 1;
          state.changeSeq.set(op, state.seq);
        }
        return { ...answer, seen: state.changeSeq.get(op) };
      } finally {
        release();
        if (state.changing.get(body.id) === chained) state.changing.delete(body.id);
      }
    }
    case 'wd-decide': {
      const admin = await sessionOf(world, world.admin);
      const request = target(state, op.pick, op.which);
      // What the admin's screen shows of the request, or (wrong) another amount or member.
      const cents = (request?.cents ?? 1_000) + (op.wrong === 'amount' ? 100 : 0);
      const someoneElse = world.members.find((m) => m.id !== request?.userId) as Member;
      const body = {
        ...op.body,
        amount: formatCents(cents),
        user_id: op.wrong === 'user' || !request ? someoneElse.id : request.userId,
      };
      const kinds = routeKinds(op.route, request);
      const answer = await faulty(world, plan, () =>
        decideWithdrawal(
          world.db,
          admin,
          request?.id ?? UNKNOWN_ID,
          v.parse(withdrawalDecisionSchema, body),
          kinds,
          op.key,
        ),
      );
      const w = (answer.body as { withdrawal?: WithdrawalBody } | undefined)?.withdrawal;
      const made =
        answer.status === 200 && w?.kind === 'compound' && w.status === 'approved'
          ? await madeInvestment(world, w)
          : {};
      const seen: DecideSeen = { kinds, ...made };
      return { ...answer, seen };
    }
    case 'wd-cancel': {
      const request = target(state, op.pick, op.which);
      const owner = world.members.find((m) => m.id === request?.userId);
      const member = await sessionOf(world, op.asOwner && owner ? owner : memberAt(world, op.by));
      return faulty(world, plan, () => cancelWithdrawal(world.db, member, request?.id ?? UNKNOWN_ID, op.key));
    }
    case 'wd-payout': {
      const admin = await sessionOf(world, world.admin);
      const body = { user_id: memberAt(world, op.member).id, ...op.body };
      return faulty(world, plan, () =>
        recordPayout(world.db, admin, v.parse(withdrawalDebitSchema, body), op.key),
      );
    }
  }
}

export const withdrawals: Domain<WithdrawalOp, WithdrawalsState> = {
  name: 'withdrawals',
  kinds: [
    'wd-request',
    'wd-roi',
    'wd-principal',
    'wd-compound',
    'wd-compound-amount',
    'wd-decide',
    'wd-cancel',
    'wd-payout',
  ],
  weight: 0.4,
  state: () => ({
    requests: new Map(),
    order: [],
    openFrom: 0,
    pending: new Set(),
    byTopup: new Map(),
    lastCode: new Map(),
    codes: new Map(),
    resolved: new Map(),
    resolvedOp: new WeakMap(),
    before: new WeakMap(),
    changing: new Map(),
    changeSeq: new WeakMap(),
    seq: 0,
    applied: new Set(),
    changed: new Set(),
    topups: new Set(),
    deferred: [],
    dirty: false,
    decided: 0,
    counts: {
      roi: 0,
      roiApproved: 0,
      principal: 0,
      principalApproved: 0,
      compound: 0,
      invested: 0,
      changes: 0,
    },
  }),

  async setup({ world, model }, admin) {
    for (const [i, member] of world.members.entries()) {
      const user = await findUserById(world.db, member.id);
      if (!user) throw new Error(`no member ${member.id}`);
      if (!unverified(world, i)) {
        await sendVerificationCode(world.db, user, `10.7.1.${i + 1}`);
        await verifyEmail(world.db, user, (await latestMailedCode(world.db, user.email)) ?? '');
      }
      // An address set by an admin is usable at once (RULES.md).
      if (!addressless(world, i))
        await updateMember(
          world.db,
          admin,
          member.id,
          v.parse(memberEditSchema, { bep20: payoutAddressOf(i) }),
        );
      const funding = v.parse(adjustmentSchema, {
        user_id: member.id,
        wallet: 'working',
        direction: 'credit',
        amount: formatCents(FUNDING_CENTS),
        reason: 'Simulated income',
      });
      await adjustBalance(world.db, admin, funding, undefined);
      model.move(PLATFORM.adjustments, working(member.id), FUNDING_CENTS);
    }
  },

  generate(r, g) {
    const roll = r.next();
    const by = () => r.int(0, g.members - 1);
    // Mostly a member who may ask (a verified e-mail, and but for compound a payout address); the
    // last two members are refused (unverified, addressless), as income requests meet them at random.
    const payee = (compound: boolean) =>
      r.chance(0.85) ? r.int(0, g.members - (compound ? 2 : 3)) : r.int(g.members - 2, g.members - 1);
    const code = (): CodeChoice => (r.chance(0.85) ? 'fresh' : r.chance(0.5) ? 'last' : 'wrong');
    const network = () => (r.chance(0.08) ? { network: r.pick(['trc20', 'bep20', 'ton']) } : {});
    const amount = (picks: AmountPick[]): Amount => (r.chance(0.9) ? r.pick(picks) : { raw: amountInput(r) });
    if (roll < 0.22)
      return {
        key: g.key,
        kind: 'wd-request',
        by: by(),
        body: {
          amount: r.chance(0.5) ? formatCents(r.int(1_000, 15_000)) : amountInput(r),
          ...network(),
        },
        code: code(),
      };
    if (roll < 0.34) {
      const t = r.next();
      return {
        key: g.key,
        kind: 'wd-roi',
        by: payee(false),
        pick: r.int(0, 1_000),
        target: t < 0.84 ? 'own' : t < 0.93 ? 'other' : 'unknown',
        amount: amount(['all', 'part', 'part', 'part', 'over', 'min', 'below']),
        share: r.int(20, 90),
        ...network(),
        code: code(),
      };
    }
    if (roll < 0.42) {
      const t = r.next();
      return {
        key: g.key,
        kind: 'wd-principal',
        by: payee(false),
        pick: r.int(0, 1_000),
        target:
          t < 0.6 ? 'matured' : t < 0.75 ? 'young' : t < 0.85 ? 'taken' : t < 0.93 ? 'other' : 'unknown',
        ...network(),
        code: code(),
      };
    }
    if (roll < 0.51)
      return {
        key: g.key,
        kind: 'wd-compound',
        by: payee(true),
        plan: r.chance(0.9)
          ? r.pick(['basic', 'basic', 'fast', 'half', 'act'] as const)
          : r.pick(['closed', 'bogus'] as const),
        amount: amount(['fit', 'fit', 'fit', 'fit', 'min', 'max', 'below', 'above']),
        share: r.int(5, 60),
        code: code(),
      };
    if (roll < 0.55)
      return {
        key: g.key,
        kind: 'wd-compound-amount',
        pick: r.int(0, 1_000),
        which: r.chance(0.8) ? 'open' : r.chance(0.8) ? 'any' : 'bogus',
        asOwner: r.chance(0.9),
        by: by(),
        amount: amount(['fit', 'fit', 'fit', 'same', 'below', 'above', 'huge']),
        share: r.int(5, 80),
      };
    if (roll < 0.8) {
      const approve = r.chance(0.55);
      return {
        key: g.key,
        kind: 'wd-decide',
        pick: r.int(0, 1_000),
        which: r.chance(0.75) ? 'open' : r.chance(0.85) ? 'any' : 'bogus',
        route: r.chance(0.75) ? 'match' : r.chance(0.6) ? 'any' : 'wrong',
        body: {
          status: r.chance(0.97) ? (approve ? 'approved' : 'rejected') : 'paid',
          ...(approve
            ? r.chance(0.92)
              ? { tx_hash: txHash(r) }
              : r.chance(0.5)
                ? { tx_hash: '0xabc' }
                : {}
            : { reason: r.chance(0.9) ? 'The address was not reachable' : 'no' }),
        },
        wrong: r.chance(0.85) ? 'none' : r.chance(0.6) ? 'amount' : 'user',
      };
    }
    if (roll < 0.92)
      return {
        key: g.key,
        kind: 'wd-cancel',
        pick: r.int(0, 1_000),
        which: r.chance(0.6) ? 'open' : r.chance(0.9) ? 'any' : 'bogus',
        asOwner: r.chance(0.9),
        by: by(),
      };
    return {
      key: g.key,
      kind: 'wd-payout',
      member: by(),
      body: {
        amount: r.chance(0.6) ? formatCents(r.int(1_000, 8_000)) : amountInput(r),
        tx_hash: r.chance(0.95) ? txHash(r) : 'none',
        reason: r.chance(0.95) ? 'Paid by support' : 'x',
      },
    };
  },

  owner: (world, op) =>
    op.kind === 'wd-decide' || op.kind === 'wd-payout' ? world.admin.id : memberAt(world, op.by).id,

  prepare(c, op) {
    const { model, state } = c;
    if (!(op.kind in REQUEST_KINDS || op.kind === 'wd-compound-amount') || op.kind === 'wd-request') return;
    // Resolved once per key: a resend of the request (same key) must send the same body.
    const cacheKey = op.key ? `${op.kind}|${op.key}` : undefined;
    const resolved = (cacheKey ? state.resolved.get(cacheKey) : undefined) ?? resolve(c, op);
    if (!resolved) return;
    if (cacheKey) state.resolved.set(cacheKey, resolved);
    state.resolvedOp.set(op, resolved);
    if (resolved.kind === 'roi' || resolved.kind === 'principal') {
      const inv = incomeOf(model).investments.get(resolved.topupId);
      state.before.set(op, { paid: inv?.paid ?? 0, matured: inv ? matured(inv, today()) : false });
    }
  },

  async send(c, op, plan) {
    // What the client does before the route's work (signing in, asking for a code) fails as a crashed
    // call when its process is dropped meanwhile, whatever the closing database throws.
    const process = c.world.plugin;
    try {
      return await sendOnce(c, op, plan);
    } catch (error) {
      if (process.dropped && !(error instanceof InjectedFault)) throw new InjectedFault(plan);
      throw error;
    }
  },

  resultId: (answer) => (answer.body as { withdrawal?: { id: string } } | undefined)?.withdrawal?.id,
  summary: (state) => ({
    withdrawals_requested: [...state.requests.values()].filter((r) => r.kind === 'income' && r.fee > 0)
      .length,
    withdrawals_decided: state.decided,
    roi_withdrawals: state.counts.roi,
    roi_withdrawals_approved: state.counts.roiApproved,
    principal_withdrawals: state.counts.principal,
    principal_withdrawals_approved: state.counts.principalApproved,
    compound_requests: state.counts.compound,
    compounds_invested: state.counts.invested,
    compound_changes: state.counts.changes,
  }),
  // Amount changes first (of a change and a decision of one request both answered 200, the change came
  // first), then decisions and cancels: they name requests answered in earlier steps (what the screen
  // showed), and one may have closed a member's open request before a new one of theirs in the same
  // step. ROI, principal and compound requests come after the step's income runs (rank 2), so that
  // what they took is judged against the ROI paid and the maturity as the step left them.
  learnRank: (op) =>
    op.kind === 'wd-compound-amount'
      ? -1
      : op.kind === 'wd-request' || op.kind === 'wd-payout'
        ? 1
        : op.kind === 'wd-decide' || op.kind === 'wd-cancel'
          ? 0
          : 3,

  learn(c, op, answer, ownerKey) {
    const { world, model, state } = c;
    state.dirty = true;
    const resolved = state.resolvedOp.get(op);
    const ok = answer.status >= 200 && answer.status < 300;
    if (op.kind === 'wd-compound-amount' && !ok) {
      const body = resolved as Extract<Resolved, { kind: 'change' }>;
      const message = typeof answer.body === 'string' ? answer.body : '';
      const request = state.requests.get(body.id);
      if (answer.status === 404 && request && request.userId === body.sender)
        return `a member's change of their own request ${body.id} was answered 404`;
      if (
        answer.status === 409 &&
        message === M.notCompound &&
        request?.kind === 'compound' &&
        request.userId === body.sender
      )
        // Judged once the step's decisions and cancels are learned: one of them may have come first.
        state.deferred.push(() =>
          request.status === 'pending' && request.closedAt === 0
            ? `a change of the pending compound ${request.id} was answered 409 (${message})`
            : undefined,
        );
      const plan = [...incomeOf(model).plans.values()].find((p) => p.id === request?.planId);
      if (
        plan &&
        body.cents !== undefined &&
        body.cents >= plan.min &&
        body.cents <= plan.max &&
        message === TOPUP_MESSAGES.amountRange(formatCents(plan.min), formatCents(plan.max))
      )
        return `a change to ${body.cents}, within the plan's range, was answered ${answer.status}`;
      return undefined;
    }
    if ((op.kind === 'wd-roi' || op.kind === 'wd-principal' || op.kind === 'wd-compound') && !ok) {
      // Judged once the step's requests are learned too (another of the member's may have taken it).
      state.deferred.push(() => judgeRefusal(c, op, answer, resolved));
      return undefined;
    }
    if (!ok) return undefined;
    const w = (answer.body as { withdrawal?: WithdrawalBody }).withdrawal;
    if (!w) return `a ${answer.status} answer to ${op.kind} without a withdrawal`;
    if (op.kind === 'wd-compound-amount')
      return learnChange(c, answer, w, resolved as Extract<Resolved, { kind: 'change' }>, ownerKey);
    if (op.kind !== 'wd-decide' && op.kind !== 'wd-cancel') return learnRequest(c, op, w, answer, resolved);

    const request = state.requests.get(w.id);
    if (!request) return `${op.kind} answered ${answer.status} for ${w.id}, a request never answered for`;
    if (op.kind === 'wd-decide' && op.wrong !== 'none')
      return `a decision naming the wrong ${op.wrong} was answered ${answer.status}`;
    if (op.kind === 'wd-cancel' && !op.asOwner && memberAt(world, op.by).id !== request.userId)
      return `member ${memberAt(world, op.by).id} cancelled another member's request ${w.id}`;
    const seen = answer.seen as DecideSeen | undefined;
    if (op.kind === 'wd-decide' && seen?.kinds && !seen.kinds.includes(request.kind))
      return `the ${seen.kinds.join('/')} call decided a ${request.kind} request (${w.id})`;
    if (request.status !== 'pending') {
      if (answer.replayed && request.status === w.status) return undefined;
      return `withdrawal ${w.id} was decided twice: ${request.status}, then ${w.status} (answered ${answer.status})`;
    }
    const want = op.kind === 'wd-cancel' ? 'cancelled' : (op.body.status as string);
    if (w.status !== want) return `a ${op.kind} asking for ${want} left the request ${w.status}`;
    if (centsOf(w.amount) !== request.cents)
      return `withdrawal ${w.id} was decided for ${w.amount}, but the answers make it ${request.cents}`;
    state.decided += 1;
    close(model, state, request, w.status as Status);
    if (w.status !== 'approved') return undefined;
    if (request.kind === 'roi') state.counts.roiApproved += 1;
    if (request.kind === 'principal') state.counts.principalApproved += 1;
    if (request.kind !== 'compound') return undefined;
    // The compound's money buys a new investment in its plan, from Income Working.
    const made = seen?.topups ?? [];
    if (made.length !== 1)
      return `the approved compound ${w.id} made ${made.length} investments from Income Working at ${w.decided_at}`;
    const topup = made[0] as TopupSeen;
    if (topup.user_id !== request.userId || topup.plan_id !== request.planId)
      return `the approved compound ${w.id} made investment ${topup.id} for ${topup.user_id} in ${topup.plan_id}`;
    state.counts.invested += 1;
    return learnMadeInvestment(
      model,
      model.states.get('income'),
      topup,
      seen?.activation ?? [],
      working(request.userId),
      {
        planId: request.planId as string,
        cents: request.cents,
      },
    );
  },

  async check({ world, model, state }, full) {
    for (const judge of state.deferred.splice(0)) {
      const broken = judge();
      if (broken) return broken;
    }
    if (!full && !state.dirty) return undefined;
    state.dirty = false;
    const changed = [...state.changed];
    const topups = full ? [...state.byTopup.keys()] : [...state.topups];
    state.changed.clear();
    state.topups.clear();
    const columns = [
      'id',
      'user_id',
      'kind',
      'status',
      'amount_cents',
      'fee_cents',
      'net_amount_cents',
      'topup_id',
      'plan_id',
    ] as const;
    const { db } = world;
    // The step's: every pending request, every request written at this instant (pending, or a payout
    // recorded approved), and every request the step's answers changed.
    const rows = full
      ? await db.selectFrom('withdrawals').select(columns).execute()
      : await db
          .selectFrom('withdrawals')
          .select(columns)
          .where((eb) =>
            eb.or([
              eb('status', '=', 'pending'),
              eb.and([eb('status', '=', 'approved'), eb('created_at', '=', new Date().toISOString())]),
              ...(changed.length > 0 ? [eb('id', 'in', changed)] : []),
            ]),
          )
          .execute();
    if (full && rows.length !== state.requests.size)
      return `${rows.length} withdrawals are stored, but the answers account for ${state.requests.size}`;
    const open = new Map<string, string>();
    let pending = 0;
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      const want = state.requests.get(row.id);
      if (!want) return `withdrawal ${row.id} (${row.kind}, ${row.status}) is stored, but no answer made it`;
      if (row.status !== want.status)
        return `withdrawal ${row.id} is ${row.status}, but the answers make it ${want.status}`;
      const stored = [
        row.user_id,
        row.kind,
        Number(row.amount_cents),
        Number(row.fee_cents),
        Number(row.net_amount_cents),
        row.topup_id,
        row.plan_id,
      ];
      const answered = [want.userId, want.kind, want.cents, want.fee, want.net, want.topupId, want.planId];
      if (JSON.stringify(stored) !== JSON.stringify(answered))
        return `withdrawal ${row.id} is stored as ${JSON.stringify(stored)}, but the answers make it ${JSON.stringify(answered)}`;
      if (row.status === 'pending') {
        pending += 1;
        const other = open.get(row.user_id);
        if (other) return `member ${row.user_id} has two open withdrawal requests (${other}, ${row.id})`;
        open.set(row.user_id, row.id);
      }
    }
    if (pending !== state.pending.size)
      return `${pending} withdrawal requests are pending, but the answers leave ${state.pending.size}`;
    // Each investment named: ROI taken at most what it paid, its principal taken at most once, and the
    // stored requests on it as the answers say.
    if (topups.length === 0) return undefined;
    const named = full
      ? rows.filter((r) => r.topup_id !== null)
      : await db.selectFrom('withdrawals').select(columns).where('topup_id', 'in', topups).execute();
    const income = incomeOf(model);
    for (const id of topups) {
      const stored = named.filter(
        (r) => r.topup_id === id && (r.status === 'pending' || r.status === 'approved'),
      );
      const roi = stored.filter((r) => r.kind === 'roi').reduce((sum, r) => sum + Number(r.amount_cents), 0);
      const principal = stored.filter((r) => r.kind === 'principal').length;
      const wantRoi = sumOf(takenOf(state, id, 'roi'));
      const wantPrincipal = takenOf(state, id, 'principal').length;
      if (roi !== wantRoi || principal !== wantPrincipal)
        return `investment ${id} has ROI ${roi} and ${principal} principal requests taken, but the answers make it ${wantRoi} and ${wantPrincipal}`;
      const inv = income.investments.get(id);
      if (!inv) return `withdrawals name investment ${id}, which no answer made`;
      if (roi > inv.paid) return `investment ${id} paid ROI ${inv.paid}, but ${roi} of it is withdrawn`;
      if (principal > 1) return `the principal of ${id} is taken ${principal} times`;
    }
    return undefined;
  },
};
