import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endedBefore } from '../../src/server/modules/income/income.service.ts';
import { addDays } from '../../src/shared/dates.ts';
import { signedInAdminClient } from '../helpers/client.ts';
import {
  backdate,
  createPlan,
  expectBooksBalanced,
  fund,
  type Member,
  member,
  runDate,
  today,
} from '../helpers/income.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// A model of RULES.md "Plans, top-ups and activation" and "Daily income", written here from the rules
// and nowhere else, against the real server (SQLite and PostgreSQL): random sponsor trees, top-ups
// bought on random past days, blocks and status changes, and runs of random dates (repeated and out
// of order). After every step each member's Income Working balance and each investment's ROI paid
// must be what the model says, and at the end the books balance.

const ROI_LEVELS_BP = [1000, 500, 300, 200, 100];
const ACTIVATION_LEVELS_BP = [500];
const PLANS = [
  { roi_percent: '1.5', roiBp: 150, duration_days: 3 },
  { roi_percent: '40', roiBp: 4000, duration_days: 10 },
];

type Flags = { blocked: boolean; roiOpen: boolean; levelOpen: boolean; active: boolean };
type Investment = {
  id?: string;
  owner: number;
  amount: number;
  roiBp: number;
  start: string;
  end: string;
  paid: number;
  days: Set<string>;
};

type Action =
  | { kind: 'buy'; who: number; plan: number; cents: number; daysAgo: number }
  | { kind: 'flag'; who: number; flag: 'blocked' | 'roiOpen' | 'levelOpen' | 'active'; value: boolean }
  | { kind: 'run'; daysAgo: number };

type Scenario = { sponsors: (number | null)[]; actions: Action[] };

const scenario: fc.Arbitrary<Scenario> = fc.integer({ min: 3, max: 6 }).chain((size) =>
  fc.record({
    // Member i's sponsor is an earlier member, or the root admin (null).
    sponsors: fc.tuple(
      ...Array.from({ length: size }, (_, i) =>
        i === 0 ? fc.constant(null) : fc.option(fc.integer({ min: 0, max: i - 1 }), { freq: 5 }),
      ),
    ),
    actions: fc.array(
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({
            kind: fc.constant('buy' as const),
            who: fc.integer({ min: 0, max: size - 1 }),
            plan: fc.integer({ min: 0, max: 1 }),
            cents: fc.integer({ min: 100, max: 50_000 }),
            daysAgo: fc.integer({ min: 0, max: 6 }),
          }),
        },
        {
          weight: 2,
          arbitrary: fc.record({
            kind: fc.constant('flag' as const),
            who: fc.integer({ min: 0, max: size - 1 }),
            flag: fc.constantFrom(
              'blocked' as const,
              'roiOpen' as const,
              'levelOpen' as const,
              'active' as const,
            ),
            value: fc.boolean(),
          }),
        },
        {
          weight: 4,
          arbitrary: fc.record({
            kind: fc.constant('run' as const),
            daysAgo: fc.integer({ min: 0, max: 6 }),
          }),
        },
      ),
      { minLength: 4, maxLength: 14 },
    ),
  }),
);

class Model {
  readonly flags: Flags[];
  readonly working: number[];
  readonly investments: Investment[] = [];
  readonly finalDates = new Set<string>();

  constructor(readonly sponsors: (number | null)[]) {
    this.flags = sponsors.map(() => ({ blocked: false, roiOpen: true, levelOpen: true, active: false }));
    this.working = sponsors.map(() => 0);
  }

  private activeDirects(who: number) {
    return this.sponsors.filter((s, i) => s === who && this.flags[i]?.active).length;
  }

  /** The uplines who earn `cents` x level percents, level 1 upward; one who does not qualify is skipped. */
  private payUp(owner: number, cents: number, levels: number[]) {
    let upline = this.sponsors[owner] ?? null;
    for (let level = 1; level <= levels.length && upline !== null; level += 1) {
      const f = this.flags[upline] as Flags;
      const share = Math.floor((cents * (levels[level - 1] ?? 0)) / 10_000);
      if (!f.blocked && f.active && f.levelOpen && this.activeDirects(upline) >= level && share > 0)
        this.working[upline] = (this.working[upline] ?? 0) + share;
      upline = this.sponsors[upline] ?? null;
    }
  }

  /** A top-up: refused for a blocked payer; else the owner is active and the uplines earn activation income. */
  buy(who: number, cents: number, plan: (typeof PLANS)[number], start: string): Investment | undefined {
    if (this.flags[who]?.blocked) return undefined;
    (this.flags[who] as Flags).active = true;
    this.payUp(who, cents, ACTIVATION_LEVELS_BP);
    const investment = {
      owner: who,
      amount: cents,
      roiBp: plan.roiBp,
      start,
      end: addDays(start, plan.duration_days - 1),
      paid: 0,
      days: new Set<string>(),
    };
    this.investments.push(investment);
    return investment;
  }

  /**
   * A run pays, for its date, every investment due and not yet paid for it. A date is final (later runs
   * pay nothing) once a run starts after it ended (RULES.md "Daily income"); today's stays open, so a
   * later run of today pays an investment bought or unblocked since.
   */
  run(date: string) {
    if (this.finalDates.has(date)) return;
    if (endedBefore(date, new Date())) this.finalDates.add(date);
    for (const inv of this.investments) {
      if (inv.days.has(date)) continue;
      const f = this.flags[inv.owner] as Flags;
      const cap = 2 * inv.amount;
      const daily = Math.floor((inv.amount * inv.roiBp) / 10_000);
      if (f.blocked || !f.roiOpen || date < inv.start || date > inv.end || inv.paid >= cap || daily === 0)
        continue;
      const pay = Math.min(daily, cap - inv.paid);
      inv.paid += pay;
      inv.days.add(date);
      this.working[inv.owner] = (this.working[inv.owner] ?? 0) + pay;
      this.payUp(inv.owner, pay, ROI_LEVELS_BP);
    }
  }
}

async function check(server: TestServer, members: Member[], model: Model, step: string) {
  const accounts = await server.db
    .selectFrom('ledger_accounts')
    .select(['user_id', 'balance_cents'])
    .where('code', '=', 'working')
    .where(
      'user_id',
      'in',
      members.map((m) => m.id),
    )
    .execute();
  const balance = new Map(accounts.map((a) => [a.user_id, Number(a.balance_cents)]));
  expect(
    members.map((m) => balance.get(m.id) ?? 0),
    `working balances after ${step}`,
  ).toEqual(model.working);
  const rows = await server.db.selectFrom('topups').select(['id', 'roi_paid_cents']).execute();
  const paid = new Map(rows.map((r) => [r.id, Number(r.roi_paid_cents)]));
  expect(
    model.investments.map((inv) => paid.get(inv.id ?? '')),
    `ROI paid per investment after ${step}`,
  ).toEqual(model.investments.map((inv) => inv.paid));
}

const FLAG_FIELDS = {
  blocked: (v: boolean) => ({ status: v ? 'block' : 'unblock' }),
  roiOpen: (v: boolean) => ({ roi_status: v ? 'open' : 'close' }),
  levelOpen: (v: boolean) => ({ level_status: v ? 'open' : 'close' }),
  active: (v: boolean) => ({ is_active: v ? 'active' : 'inactive' }),
};

describe('the daily income against a model of the rules', () => {
  it('pays every balance and cap as the rules say, after every step', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ sponsors, actions }) => {
        const server = await startServer({
          TRUST_PROXY: '127.0.0.1',
          INCOME_SCHEDULE: 'off',
          INCOME_RETRY_MS: '0',
          INCOME_CHUNK_SIZE: '2',
        });
        try {
          const admin = await signedInAdminClient(server.baseUrl);
          const planIds = [];
          for (const plan of PLANS)
            planIds.push(
              await createPlan(admin, { roi_percent: plan.roi_percent, duration_days: plan.duration_days }),
            );
          const members: Member[] = [];
          for (const sponsor of sponsors)
            members.push(
              await member(server, admin, sponsor === null ? undefined : members[sponsor], { active: false }),
            );
          const model = new Model(sponsors);
          for (const [index, action] of actions.entries()) {
            const step = `step ${index} ${JSON.stringify(action)}`;
            if (action.kind === 'buy') {
              const who = members[action.who] as Member;
              const plan = PLANS[action.plan] as (typeof PLANS)[number];
              await fund(admin, who.id, (action.cents / 100).toFixed(2));
              const res = await who.client.post('/topup/add', {
                plan_id: planIds[action.plan],
                amount: (action.cents / 100).toFixed(2),
              });
              const start = addDays(today(), -action.daysAgo);
              const investment = model.buy(action.who, action.cents, plan, start);
              if (!investment) {
                expect(res.status, step).toBe(403);
                continue;
              }
              expect(res.status, `${step}: ${res.text}`).toBe(201);
              investment.id = res.body.topup.id;
              expect(await backdate(server, investment.id as string, action.daysAgo)).toBe(start);
            } else if (action.kind === 'flag') {
              const who = members[action.who] as Member;
              const res = await admin.put(`/users/${who.id}`, FLAG_FIELDS[action.flag](action.value));
              expect(res.status, `${step}: ${res.text}`).toBe(200);
              // A block ends the member's sessions: once unblocked, they sign in again, as a person would.
              const wasBlocked = (model.flags[action.who] as Flags).blocked;
              if (action.flag === 'blocked' && wasBlocked && !action.value) await who.signIn();
              (model.flags[action.who] as Flags)[action.flag] = action.value;
            } else {
              const date = addDays(today(), -action.daysAgo);
              const res = await runDate(admin, date);
              expect(res.status, `${step}: ${res.text}`).toBe(200);
              model.run(date);
            }
            await check(server, members, model, step);
          }
          await expectBooksBalanced(admin);
        } finally {
          await server.stop();
        }
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 300_000);
});
