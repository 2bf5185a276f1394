import * as v from 'valibot';
import { getAddress } from 'viem';
import {
  sendVerificationCode,
  verifyEmail,
} from '../../../src/server/modules/account/email-verification.service.ts';
import { sendOtp } from '../../../src/server/modules/profile/otp.service.ts';
import { findUserById } from '../../../src/server/modules/users/users.repository.ts';
import { updateMember } from '../../../src/server/modules/users/users.service.ts';
import { PLATFORM, walletAccountId } from '../../../src/server/modules/wallets/ledger.service.ts';
import { adjustBalance } from '../../../src/server/modules/wallets/wallets.service.ts';
import {
  cancelWithdrawal,
  decideWithdrawal,
  recordPayout,
  requestWithdrawal,
} from '../../../src/server/modules/withdrawals/withdrawals.service.ts';
import { memberEditSchema } from '../../../src/shared/member-edit.ts';
import { otpSendSchema } from '../../../src/shared/profile.ts';
import { adjustmentSchema } from '../../../src/shared/wallets.ts';
import {
  incomeWithdrawalSchema,
  withdrawalDebitSchema,
  withdrawalDecisionSchema,
} from '../../../src/shared/withdrawals.ts';
import { latestMailedCode } from '../../helpers/mailed-codes.ts';
import type { Rng } from '../prng.ts';
import {
  amountInput,
  type Ctx,
  type Domain,
  faulty,
  type Member,
  memberAt,
  sessionOf,
  type World,
} from '../world.ts';

// Income withdrawals (RULES.md "Withdrawals (money out)"): the member's request (a verified e-mail, a
// payout address an admin set, a fresh e-mailed code read from the outbox), held whole at once; the
// admin's approve (with the payout's hash: net to `withdrawals paid`, the 5% fee to `fees`) and reject
// (the hold voided), the member's cancel, decisions naming the wrong amount or member, two at once, on
// decided or cancelled requests; and the admin's record of a payout made outside a request.
// ROI, principal and compound requests need investments (top-ups and income runs), not driven here.

export type WithdrawalOp =
  | {
      kind: 'wd-request';
      by: number;
      body: { amount: unknown; network?: unknown };
      /** The code sent: a fresh one from the mail, the one used last time, or a wrong one. */
      code: 'fresh' | 'last' | 'wrong';
    }
  | {
      kind: 'wd-decide';
      pick: number;
      which: 'open' | 'any' | 'bogus';
      body: { status: unknown; tx_hash?: unknown; reason?: unknown };
      /** What the decision names wrongly, if anything (a 409). */
      wrong: 'none' | 'amount' | 'user';
    }
  | { kind: 'wd-cancel'; pick: number; which: 'open' | 'any' | 'bogus'; asOwner: boolean; by: number }
  | { kind: 'wd-payout'; member: number; body: { amount: unknown; tx_hash: unknown; reason: unknown } };

type Status = 'pending' | 'approved' | 'rejected' | 'cancelled';
type Request = { id: string; userId: string; cents: number; fee: number; net: number; status: Status };

type WithdrawalsState = {
  requests: Map<string, Request>;
  /** Request ids in the order they were answered: what a decision or cancel picks from. */
  order: string[];
  /** The code each member used last, and the code each key's request carries (a retry resends it). */
  lastCode: Map<number, string>;
  codes: Map<string, string>;
  decided: number;
};

/** Funding of each member's Income Working at the start, in cents. */
const FUNDING_CENTS = 50_000;
const UNKNOWN_ID = '00000000-0000-4000-8000-0000000000aa';

/** Member i's BEP20 payout address (the last but one member has none saved). */
export const payoutAddressOf = (i: number) =>
  getAddress(`0x${(0xa11ce000 + i).toString(16).padStart(40, '0')}`);
/** Members without a verified e-mail or a payout address: their requests are refused. */
export const unverified = (world: World, i: number) => i === world.members.length - 1;
export const addressless = (world: World, i: number) => i === world.members.length - 2;

/** RULES.md: the fee is 5% of the amount, rounded to the nearest cent (half up). */
const feeOf = (cents: number) => Math.floor((cents * 5 + 50) / 100);
/** An amount as the API writes it ("12.34"), in cents. */
export const centsOf = (text: string) => Math.round(Number(text) * 100);
/** A transaction hash from the seed. */
export const txHash = (r: Rng) =>
  `0x${Array.from({ length: 8 }, () => r.int(0, 0xffffffff).toString(16).padStart(8, '0')).join('')}`;

function target(state: WithdrawalsState, pick: number, which: 'open' | 'any' | 'bogus'): Request | undefined {
  if (which === 'bogus') return undefined;
  const ids =
    which === 'open' ? state.order.filter((id) => state.requests.get(id)?.status === 'pending') : state.order;
  // Open: one of the oldest three (the queue's head, so that decisions at once often name the same).
  const index = pick % (which === 'open' ? Math.min(ids.length, 3) : ids.length);
  return ids.length > 0 ? state.requests.get(ids[index] as string) : undefined;
}

/** The code a request carries: read from the member's mail after asking for one, or not. */
async function codeFor(
  c: Ctx<WithdrawalsState>,
  op: Extract<WithdrawalOp, { kind: 'wd-request' }> & { key?: string },
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
    } catch {
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

export const withdrawals: Domain<WithdrawalOp, WithdrawalsState> = {
  name: 'withdrawals',
  kinds: ['wd-request', 'wd-decide', 'wd-cancel', 'wd-payout'],
  weight: 0.3,
  state: () => ({ requests: new Map(), order: [], lastCode: new Map(), codes: new Map(), decided: 0 }),

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
        amount: (FUNDING_CENTS / 100).toFixed(2),
        reason: 'Simulated income',
      });
      await adjustBalance(world.db, admin, funding, undefined);
      model.move(PLATFORM.adjustments, walletAccountId(member.id, 'working'), FUNDING_CENTS);
    }
  },

  generate(r, g) {
    const roll = r.next();
    if (roll < 0.4)
      return {
        key: g.key,
        kind: 'wd-request',
        by: r.int(0, g.members - 1),
        body: {
          amount: r.chance(0.5) ? (r.int(1_000, 15_000) / 100).toFixed(2) : amountInput(r),
          ...(r.chance(0.08) ? { network: r.pick(['trc20', 'bep20', 'ton']) } : {}),
        },
        code: r.chance(0.85) ? 'fresh' : r.chance(0.5) ? 'last' : 'wrong',
      };
    if (roll < 0.72) {
      const approve = r.chance(0.55);
      return {
        key: g.key,
        kind: 'wd-decide',
        pick: r.int(0, 1_000),
        which: r.chance(0.75) ? 'open' : r.chance(0.85) ? 'any' : 'bogus',
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
    if (roll < 0.87)
      return {
        key: g.key,
        kind: 'wd-cancel',
        pick: r.int(0, 1_000),
        which: r.chance(0.6) ? 'open' : r.chance(0.9) ? 'any' : 'bogus',
        asOwner: r.chance(0.9),
        by: r.int(0, g.members - 1),
      };
    return {
      key: g.key,
      kind: 'wd-payout',
      member: r.int(0, g.members - 1),
      body: {
        amount: r.chance(0.6) ? (r.int(1_000, 8_000) / 100).toFixed(2) : amountInput(r),
        tx_hash: r.chance(0.95) ? txHash(r) : 'none',
        reason: r.chance(0.95) ? 'Paid by support' : 'x',
      },
    };
  },

  owner: (world, op) =>
    op.kind === 'wd-request' || op.kind === 'wd-cancel' ? memberAt(world, op.by).id : world.admin.id,

  async send(c, op, plan) {
    const { world, state } = c;
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
      case 'wd-decide': {
        const admin = await sessionOf(world, world.admin);
        const request = target(state, op.pick, op.which);
        // What the admin's screen shows of the request, or (wrong) another amount or member.
        const cents = (request?.cents ?? 1_000) + (op.wrong === 'amount' ? 100 : 0);
        const someoneElse = world.members.find((m) => m.id !== request?.userId) as Member;
        const body = {
          ...op.body,
          amount: (cents / 100).toFixed(2),
          user_id: op.wrong === 'user' || !request ? someoneElse.id : request.userId,
        };
        return faulty(world, plan, () =>
          decideWithdrawal(
            world.db,
            admin,
            request?.id ?? UNKNOWN_ID,
            v.parse(withdrawalDecisionSchema, body),
            undefined,
            op.key,
          ),
        );
      }
      case 'wd-cancel': {
        const request = target(state, op.pick, op.which);
        const owner = world.members.find((m) => m.id === request?.userId);
        const member = await sessionOf(world, op.asOwner && owner ? owner : memberAt(world, op.by));
        return faulty(world, plan, () =>
          cancelWithdrawal(world.db, member, request?.id ?? UNKNOWN_ID, op.key),
        );
      }
      case 'wd-payout': {
        const admin = await sessionOf(world, world.admin);
        const body = { user_id: memberAt(world, op.member).id, ...op.body };
        return faulty(world, plan, () =>
          recordPayout(world.db, admin, v.parse(withdrawalDebitSchema, body), op.key),
        );
      }
    }
  },

  resultId: (answer) => (answer.body as { withdrawal?: { id: string } } | undefined)?.withdrawal?.id,
  summary: (state) => ({
    withdrawals_requested: [...state.requests.values()].filter((r) => r.fee > 0).length,
    withdrawals_decided: state.decided,
  }),
  // Decisions and cancels first: they name requests answered in earlier steps (what the screen showed),
  // and one may have closed a member's open request before a new one of theirs in the same step.
  learnRank: (op) => (op.kind === 'wd-request' || op.kind === 'wd-payout' ? 1 : 0),

  learn({ world, model, state }, op, answer) {
    if (answer.status < 200 || answer.status >= 300) return undefined;
    const w = (
      answer.body as {
        withdrawal?: {
          id: string;
          status: string;
          amount: string;
          fee: string;
          net_amount: string;
          user_id: string;
        };
      }
    ).withdrawal;
    if (!w) return `a ${answer.status} answer to ${op.kind} without a withdrawal`;
    const working = (userId: string) => walletAccountId(userId, 'working');
    if (op.kind === 'wd-request' || op.kind === 'wd-payout') {
      if (state.requests.has(w.id)) return undefined; // a replay
      const cents = centsOf(w.amount);
      const userId = op.kind === 'wd-request' ? memberAt(world, op.by).id : memberAt(world, op.member).id;
      const asked = op.body.amount;
      if (w.user_id !== userId) return `a withdrawal for ${userId} was made for ${w.user_id}`;
      if (cents < 1_000)
        return `a withdrawal of ${w.amount}, below the minimum 10.00, was answered ${answer.status}`;
      if (typeof asked === 'string' && centsOf(asked) !== cents)
        return `a withdrawal of ${String(asked)} was made for ${w.amount}`;
      const fee = feeOf(cents);
      if (centsOf(w.fee) !== fee || centsOf(w.net_amount) !== cents - fee)
        return `a withdrawal of ${w.amount} has fee ${w.fee} and net ${w.net_amount}; 5% makes the fee ${fee}`;
      if (op.kind === 'wd-request') {
        const open = [...state.requests.values()].find((r) => r.userId === userId && r.status === 'pending');
        if (open) return `member ${userId} has two open withdrawal requests (${open.id}, ${w.id})`;
        if (w.status !== 'pending') return `a new request is ${w.status}`;
        // Held whole at once: the net and the fee, two pending transfers.
        model.rows += 2;
        model.add(model.held, working(userId), cents);
      } else {
        if (w.status !== 'approved') return `a recorded payout is ${w.status}`;
        model.move(working(userId), PLATFORM.withdrawals, cents - fee);
        model.move(working(userId), PLATFORM.fees, fee);
      }
      state.requests.set(w.id, {
        id: w.id,
        userId,
        cents,
        fee,
        net: cents - fee,
        status: w.status as Status,
      });
      state.order.push(w.id);
      return undefined;
    }
    const request = state.requests.get(w.id);
    if (!request) return `${op.kind} answered ${answer.status} for ${w.id}, a request never answered for`;
    if (op.kind === 'wd-decide' && op.wrong !== 'none')
      return `a decision naming the wrong ${op.wrong} was answered ${answer.status}`;
    if (op.kind === 'wd-cancel' && !op.asOwner && memberAt(world, op.by).id !== request.userId)
      return `member ${memberAt(world, op.by).id} cancelled another member's request ${w.id}`;
    if (request.status !== 'pending') {
      if (answer.replayed && request.status === w.status) return undefined;
      return `withdrawal ${w.id} was decided twice: ${request.status}, then ${w.status} (answered ${answer.status})`;
    }
    const want = op.kind === 'wd-cancel' ? 'cancelled' : (op.body.status as string);
    if (w.status !== want) return `a ${op.kind} asking for ${want} left the request ${w.status}`;
    request.status = w.status as Status;
    state.decided += 1;
    model.add(model.held, working(request.userId), -request.cents);
    if (w.status === 'approved') {
      model.move(working(request.userId), PLATFORM.withdrawals, request.net);
      model.move(working(request.userId), PLATFORM.fees, request.fee);
    } else {
      // Rejected or cancelled: both holds are voided, the whole amount is available again.
      model.rows += 2;
    }
    return undefined;
  },

  async check({ world, state }) {
    const rows = await world.db.selectFrom('withdrawals').select(['id', 'status']).execute();
    if (rows.length !== state.requests.size)
      return `${rows.length} withdrawals are stored, but the answers account for ${state.requests.size}`;
    for (const row of rows) {
      const want = state.requests.get(row.id)?.status;
      if (row.status !== want)
        return `withdrawal ${row.id} is ${row.status}, but the answers make it ${want}`;
    }
    return undefined;
  },
};
