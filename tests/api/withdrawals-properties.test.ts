import { randomUUID } from 'node:crypto';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import type { SessionUser } from '../../src/server/http/session.ts';
import { sendEmailCode } from '../../src/server/modules/account/email-codes.service.ts';
import { findUserById } from '../../src/server/modules/users/users.repository.ts';
import {
  PLATFORM,
  postTransfer,
  reconcile,
  walletAccountId,
} from '../../src/server/modules/wallets/ledger.service.ts';
import {
  cancelWithdrawal,
  decideWithdrawal,
  requestWithdrawal,
} from '../../src/server/modules/withdrawals/withdrawals.service.ts';
import { formatCents } from '../../src/shared/money.ts';
import { MAIL_TEXT_OTP } from '../../src/shared/profile.ts';
import { WITHDRAWAL_MESSAGES as M } from '../../src/shared/withdrawals.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { codeIn, PAYOUT_BEP20, TX_HASH } from '../helpers/withdrawals.ts';

// The ledger's invariants (ledger-properties.test.ts) with withdrawals in the mix (RULES.md
// "Withdrawals"), after every step of random sequences run through the real services on the real
// database (SQLite or PostgreSQL): members are funded, request withdrawals (net and fee held), admins
// approve (posted) or reject (voided), members cancel (voided), and approve races cancel or reject (one
// wins, the other is a 409). After every step: the books balance, no member's available money is below
// zero, each member's Income Working and its held part equal a model in integer cents, the platform's
// `withdrawals` and `fees` accounts hold exactly the approved net amounts and fees, every pending
// request has exactly its two holds open (and no other hold is), and a refused operation (400, 404,
// 409, 422) or a keyed repeat changes nothing.

let server: TestServer;
let admin: SessionUser;
type Member = { id: string; email: string; working: string };
const members: Member[] = [];
const MIN_CENTS = 1_000; // RULES.md: minimum 10.00
/** RULES.md: a 5% fee, rounded to the nearest cent (half up). The model's own arithmetic. */
const feeOf = (cents: number) => Math.floor((cents * 5 + 50) / 100);

const sessionOf = async (db: Db, id: string): Promise<SessionUser> => ({
  sessionId: `property-${id}`,
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  user: (await findUserById(db, id)) ?? expect.unreachable(`no user ${id}`),
});

/** The newest mail to `email` in the outbox (no SMTP_URL: mails stay there), read for its code. */
const seenMails = new Set<string>();
async function mailedCode(email: string): Promise<string> {
  const rows = await server.db
    .selectFrom('mail_outbox')
    .select(['id', 'text_body'])
    .where('to_address', '=', email.toLowerCase())
    .execute();
  const fresh = rows.filter((r) => !seenMails.has(r.id));
  expect(fresh).toHaveLength(1);
  const [mail] = fresh as [(typeof rows)[number]];
  seenMails.add(mail.id);
  return codeIn(mail.text_body);
}

/** Members ready to withdraw, set up over the API: e-mail verified with the mailed code, BEP20 set by an admin. */
async function readyMember(adminClient: ApiClient): Promise<Member> {
  const { member, client, auth } = await signedInMember(server.baseUrl);
  expect((await client.post('/auth/email-verification')).status).toBe(200);
  const verified = await client.post('/auth/verify-user', { otp: await mailedCode(member.email) });
  expect(verified.status, verified.text).toBe(200);
  const address = await adminClient.put(`/users/${auth.id}`, { bep20: PAYOUT_BEP20 });
  expect(address.status, address.text).toBe(200);
  return { id: auth.id, email: member.email, working: walletAccountId(auth.id, 'working') };
}

beforeAll(async () => {
  server = await startServer();
  const adminClient = await signedInAdminClient(server.baseUrl);
  for (let i = 0; i < 3; i++) members.push(await readyMember(adminClient));
  const adminRow = await server.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN.email)
    .executeTakeFirstOrThrow();
  admin = await sessionOf(server.db, adminRow.id);
  // Funded once (later runs fund more): the wallets exist before the first look at them.
  for (const m of members)
    await server.db.transaction().execute((trx) =>
      postTransfer(trx, {
        debitAccountId: PLATFORM.adjustments,
        creditAccountId: m.working,
        amountCents: 10_000,
        kind: 'adjustment',
      }),
    );
}, 60_000);
afterAll(async () => server?.stop());

type Request = { id: string; member: number; cents: number; fee: number };
type Keyed = { member: number; key: string; cents: number; otp: string; body: unknown };
type Model = {
  balance: number[];
  held: number[];
  pending: Request[];
  /** Decided or cancelled requests: settled, never again. */
  closed: Request[];
  paidNet: number;
  paidFees: number;
  /** Granted requests of this run with their key, to repeat. */
  keyed: Keyed[];
};
const available = (m: Model, i: number) => (m.balance[i] ?? 0) - (m.held[i] ?? 0);

async function accountCents(id: string) {
  const row = await server.db
    .selectFrom('ledger_accounts')
    .select(['balance_cents', 'held_cents'])
    .where('id', '=', id)
    .executeTakeFirst();
  return { balance: Number(row?.balance_cents ?? 0), held: Number(row?.held_cents ?? 0) };
}

const withdrawalRows = () =>
  server.db
    .selectFrom('withdrawals')
    .select([
      'id',
      'user_id',
      'status',
      'amount_cents',
      'fee_cents',
      'net_amount_cents',
      'hold_id',
      'fee_hold_id',
    ])
    .orderBy('id')
    .execute();

/** The model starts each run from the database (earlier runs, and shrinking, left money and requests behind). */
async function loadModel(): Promise<Model> {
  const rows = await withdrawalRows();
  const request = (r: (typeof rows)[number]): Request => ({
    id: r.id,
    member: members.findIndex((m) => m.id === r.user_id),
    cents: Number(r.amount_cents),
    fee: Number(r.fee_cents),
  });
  const wallets = await Promise.all(members.map((m) => accountCents(m.working)));
  return {
    balance: wallets.map((w) => w.balance),
    held: wallets.map((w) => w.held),
    pending: rows.filter((r) => r.status === 'pending').map(request),
    closed: rows.filter((r) => r.status !== 'pending').map(request),
    paidNet: (await accountCents(PLATFORM.withdrawals)).balance,
    paidFees: (await accountCents(PLATFORM.fees)).balance,
    keyed: [],
  };
}

/** Everything a refused operation or a repeat must leave alone. */
const snapshot = async () => ({
  accounts: await server.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents', 'held_cents'])
    .orderBy('id')
    .execute(),
  transfers: Number(
    (
      await server.db
        .selectFrom('ledger_transfers')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  withdrawals: await server.db
    .selectFrom('withdrawals')
    .select(['id', 'status', 'decided_at', 'tx_hash', 'reason'])
    .orderBy('id')
    .execute(),
  keys: Number(
    (
      await server.db
        .selectFrom('idempotency_keys')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

async function expectRefused(work: () => Promise<unknown>, statusCode: number, message?: string) {
  const before = await snapshot();
  await expect(work()).rejects.toMatchObject({ statusCode, ...(message ? { message } : {}) });
  expect(await snapshot()).toEqual(before);
}

async function assertInvariants(model: Model) {
  const books = await reconcile(server.db);
  expect(books.mismatches).toEqual([]);
  expect(books.ledger_sum).toBe('0.00');
  expect(books.balanced).toBe(true);
  const negative = await server.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance_cents', 'held_cents'])
    .where('user_id', 'is not', null)
    .where((eb) =>
      eb.or([eb(eb('balance_cents', '-', eb.ref('held_cents')), '<', 0), eb('held_cents', '<', 0)]),
    )
    .execute();
  expect(negative).toEqual([]);

  const wallets = await Promise.all(members.map((m) => accountCents(m.working)));
  expect(wallets).toEqual(members.map((_, i) => ({ balance: model.balance[i], held: model.held[i] })));
  // A member's held money is exactly their pending request (RULES.md: at most one open request).
  for (const [i] of members.entries()) {
    const open = model.pending.filter((r) => r.member === i);
    expect(open.length).toBeLessThanOrEqual(1);
    expect(model.held[i]).toBe(open.reduce((sum, r) => sum + r.cents, 0));
  }

  const rows = await withdrawalRows();
  const approved = rows.filter((r) => r.status === 'approved');
  const sum = (values: (string | number | bigint)[]) => values.reduce<number>((s, v) => s + Number(v), 0);
  expect(await accountCents(PLATFORM.withdrawals)).toEqual({ balance: model.paidNet, held: 0 });
  expect(await accountCents(PLATFORM.fees)).toEqual({ balance: model.paidFees, held: 0 });
  expect(model.paidNet).toBe(sum(approved.map((r) => r.net_amount_cents)));
  expect(model.paidFees).toBe(sum(approved.map((r) => r.fee_cents)));
  expect(
    rows
      .filter((r) => r.status === 'pending')
      .map((r) => r.id)
      .sort(),
  ).toEqual(model.pending.map((r) => r.id).sort());

  // Every hold in the ledger, open or settled, belongs to a request: a pending one's two are open,
  // with its net and fee; a decided one's are posted (approved) or voided (rejected, cancelled).
  const holds = await server.db
    .selectFrom('ledger_transfers as p')
    .leftJoin('ledger_transfers as s', 's.pending_id', 'p.id')
    .select([
      'p.id',
      'p.debit_account_id as debit',
      'p.credit_account_id as credit',
      'p.amount_cents',
      's.phase as settled',
    ])
    .where('p.phase', '=', 'pending')
    .execute();
  const byId = (a: { id: string | null }, b: { id: string | null }) =>
    String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
  const expected = rows.flatMap((r) => {
    const member = members.find((m) => m.id === r.user_id);
    const settled = r.status === 'pending' ? null : r.status === 'approved' ? 'post' : 'void';
    return [
      {
        id: r.hold_id,
        debit: member?.working,
        credit: PLATFORM.withdrawals,
        cents: Number(r.net_amount_cents),
        settled,
      },
      {
        id: r.fee_hold_id,
        debit: member?.working,
        credit: PLATFORM.fees,
        cents: Number(r.fee_cents),
        settled,
      },
    ];
  });
  expect(holds.map(({ amount_cents, ...h }) => ({ ...h, cents: Number(amount_cents) })).sort(byId)).toEqual(
    expected.sort(byId),
  );
}

const memberIndex = fc.integer({ min: 0, max: 2 });
const step = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('fund' as const),
      to: memberIndex,
      cents: fc.integer({ min: 1, max: 20_000 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('request' as const),
      by: memberIndex,
      size: fc.oneof(
        fc.record({ how: fc.constant('share' as const), permille: fc.integer({ min: 1, max: 1000 }) }),
        fc.record({ how: fc.constant('under' as const), cents: fc.integer({ min: 1, max: MIN_CENTS - 1 }) }),
        fc.record({ how: fc.constant('over' as const), extra: fc.integer({ min: 1, max: 5_000 }) }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('repeat' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('decide' as const),
      pick: fc.nat(),
      how: fc.constantFrom('approved' as const, 'rejected' as const, 'cancelled' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('race' as const),
      pick: fc.nat(),
      against: fc.constantFrom('cancelled' as const, 'rejected' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('redecide' as const),
      pick: fc.nat(),
      how: fc.constantFrom('approved' as const, 'rejected' as const, 'cancelled' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('misnamed' as const),
      pick: fc.nat(),
      what: fc.constantFrom('amount' as const, 'user' as const, 'stranger' as const),
    }),
  },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;
type Closing = 'approved' | 'rejected' | 'cancelled';

/** One way a pending request is closed, through the service its caller uses. */
function close(request: Request, how: Closing, naming = { cents: request.cents, member: request.member }) {
  const owner = members[request.member] as Member;
  if (how === 'cancelled')
    return sessionOf(server.db, owner.id).then((s) => cancelWithdrawal(server.db, s, request.id, undefined));
  return decideWithdrawal(
    server.db,
    admin,
    request.id,
    {
      status: how,
      amount: naming.cents,
      user_id: (members[naming.member] as Member).id,
      ...(how === 'approved' ? { tx_hash: TX_HASH } : { reason: 'Address flagged by the payout desk' }),
    },
    undefined,
    undefined,
  );
}

/** The model after `request` was closed `how`. */
function closed(model: Model, request: Request, how: Closing) {
  model.pending = model.pending.filter((r) => r.id !== request.id);
  model.closed.push(request);
  const i = request.member;
  model.held[i] = (model.held[i] ?? 0) - request.cents;
  if (how === 'approved') {
    model.balance[i] = (model.balance[i] ?? 0) - request.cents;
    model.paidNet += request.cents - request.fee;
    model.paidFees += request.fee;
  }
}

/** Runs one step against the database and the model; returns what happened, for the coverage check. */
async function apply(model: Model, s: Step): Promise<string> {
  switch (s.op) {
    case 'fund': {
      await server.db.transaction().execute((trx) =>
        postTransfer(trx, {
          debitAccountId: PLATFORM.adjustments,
          creditAccountId: (members[s.to] as Member).working,
          amountCents: s.cents,
          kind: 'adjustment',
        }),
      );
      model.balance[s.to] = (model.balance[s.to] ?? 0) + s.cents;
      return 'funded';
    }
    case 'request': {
      const m = members[s.by] as Member;
      const free = available(model, s.by);
      const cents =
        s.size.how === 'share'
          ? Math.max(MIN_CENTS, Math.floor((free * s.size.permille) / 1000))
          : s.size.how === 'under'
            ? s.size.cents
            : Math.max(MIN_CENTS, free + s.size.extra);
      const member = await sessionOf(server.db, m.id);
      await sendEmailCode(server.db, member.user, 'withdrawal', {
        subject: MAIL_TEXT_OTP.withdrawalSubject,
        intro: MAIL_TEXT_OTP.withdrawalIntro,
      });
      const otp = await mailedCode(m.email);
      const key = randomUUID();
      const ask = () =>
        requestWithdrawal(server.db, member, { kind: 'income', otp, amountCents: cents }, key);
      if (model.pending.some((r) => r.member === s.by)) {
        await expectRefused(ask, 422, M.openRequest);
        return 'refused: an open request';
      }
      if (cents < MIN_CENTS) {
        await expectRefused(ask, 400);
        return 'refused: under the minimum';
      }
      if (cents > free) {
        await expectRefused(ask, 422, M.insufficient);
        return 'refused: not enough money';
      }
      const outcome = await ask();
      const fee = feeOf(cents);
      expect(outcome.statusCode).toBe(201);
      const { withdrawal } = outcome.body as { withdrawal: Record<string, string> };
      expect(withdrawal).toMatchObject({
        user_id: m.id,
        kind: 'income',
        status: 'pending',
        amount: formatCents(cents),
        fee: formatCents(fee),
        net_amount: formatCents(cents - fee),
        address: PAYOUT_BEP20,
      });
      model.pending.push({ id: withdrawal.id as string, member: s.by, cents, fee });
      model.held[s.by] = (model.held[s.by] ?? 0) + cents;
      model.keyed.push({ member: s.by, key, cents, otp, body: outcome.body });
      return 'requested';
    }
    case 'repeat': {
      const keyed = model.keyed[s.pick % Math.max(1, model.keyed.length)];
      if (!keyed) return 'nothing to repeat';
      const member = await sessionOf(server.db, (members[keyed.member] as Member).id);
      const before = await snapshot();
      const again = await requestWithdrawal(
        server.db,
        member,
        { kind: 'income', otp: keyed.otp, amountCents: keyed.cents },
        keyed.key,
      );
      expect(again).toEqual({ statusCode: 201, body: keyed.body, replayed: true });
      expect(await snapshot()).toEqual(before);
      return 'repeat answered from the stored result';
    }
    case 'decide': {
      const request = model.pending[s.pick % Math.max(1, model.pending.length)];
      if (!request) return 'nothing pending';
      const outcome = await close(request, s.how);
      expect(outcome.statusCode).toBe(200);
      expect((outcome.body as { withdrawal: { status: string } }).withdrawal.status).toBe(s.how);
      closed(model, request, s.how);
      return s.how;
    }
    case 'race': {
      const request = model.pending[s.pick % Math.max(1, model.pending.length)];
      if (!request) return 'nothing pending';
      const [approve, other] = await Promise.allSettled([
        close(request, 'approved'),
        close(request, s.against),
      ]);
      const won = [approve, other].filter((r) => r.status === 'fulfilled');
      const lost = [approve, other].filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]?.reason).toMatchObject({ statusCode: 409 });
      const winner = approve.status === 'fulfilled' ? 'approved' : s.against;
      closed(model, request, winner);
      return `race of approve and ${s.against}: ${winner} won`;
    }
    case 'redecide': {
      const request = model.closed[s.pick % Math.max(1, model.closed.length)];
      if (!request) return 'nothing closed yet';
      await expectRefused(() => close(request, s.how), 409);
      return 'second decision refused';
    }
    case 'misnamed': {
      const request = model.pending[s.pick % Math.max(1, model.pending.length)];
      if (!request) return 'nothing pending';
      const other = (request.member + 1) % members.length;
      if (s.what === 'stranger') {
        // Another member's request is not theirs to cancel (a 404, as if it did not exist).
        const stranger = await sessionOf(server.db, (members[other] as Member).id);
        await expectRefused(() => cancelWithdrawal(server.db, stranger, request.id, undefined), 404);
        return 'a stranger’s cancel refused';
      }
      const naming =
        s.what === 'amount'
          ? { cents: request.cents + 1, member: request.member }
          : { cents: request.cents, member: other };
      await expectRefused(() => close(request, 'approved', naming), 409);
      return `a decision naming another ${s.what} refused`;
    }
  }
}

describe('withdrawals in the ledger under random operation sequences', () => {
  it('keep the books balanced, the holds exactly the pending requests, and every account equal to the model', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 15, maxLength: 30 }), async (steps) => {
        const model = await loadModel();
        await assertInvariants(model);
        for (const s of steps) {
          const outcome = await apply(model, s);
          seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
          await assertInvariants(model);
        }
      }),
      { numRuns: 25 },
    );
    // Not a vacuous pass: every kind of success and refusal happened.
    for (const outcome of [
      'funded',
      'requested',
      'approved',
      'rejected',
      'cancelled',
      'repeat answered from the stored result',
      'refused: an open request',
      'refused: under the minimum',
      'refused: not enough money',
      'second decision refused',
    ])
      expect(seen.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    const races = [...seen.keys()].filter((k) => k.startsWith('race of approve'));
    expect(races.some((k) => k.includes('and cancelled'))).toBe(true);
    expect(races.some((k) => k.includes('and rejected'))).toBe(true);
  }, 120_000);
});
