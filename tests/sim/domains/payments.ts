import * as v from 'valibot';
import { ipnSignature } from '../../../src/server/modules/payments/ipn-signature.ts';
import type { ProviderPayment } from '../../../src/server/modules/payments/payment-provider.ts';
import {
  createPayment,
  handleIpn,
  type PaymentsDeps,
  paymentStatus,
} from '../../../src/server/modules/payments/payments.service.ts';
import { PLATFORM, walletAccountId } from '../../../src/server/modules/wallets/ledger.service.ts';
import {
  createPaymentSchema,
  PAYMENT_STATUS_RANK,
  type PaymentStatus,
} from '../../../src/shared/payments.ts';
import { type SimInvoice, SimProvider } from '../sim-provider.ts';
import { amountInput, type Ctx, type Domain, faulty, type Member, memberAt, sessionOf } from '../world.ts';

// Crypto payments: a member's invoice, the provider's callbacks (in order, late, repeated, out of order,
// partial, failed, expired, refunded, with bad signatures) and the member's status page, which asks the
// provider. RULES.md "Deposits": statuses only move forward; the wallet is credited once, when
// `finished` is stored.

export type PaymentOp =
  | {
      kind: 'pay-create';
      by: number;
      body: { price_amount: unknown; price_currency: unknown; pay_currency: unknown };
    }
  /** The invoice's true status moves on and the provider calls back with it. */
  | { kind: 'pay-advance'; pick: number; roll: number; badSignature: boolean }
  /** A callback delivered again, late: it carries the entry `back` steps before the last. */
  | { kind: 'pay-callback'; pick: number; back: number; badSignature: boolean }
  /** The member's payment page asks for the status (the service reads it from the provider). */
  | { kind: 'pay-poll'; pick: number; asOwner: boolean; back: number };

type PaymentsState = {
  provider: SimProvider;
  /** Payments the service answered for, with the status RULES.md says it keeps, and their credit. */
  payments: Map<string, { owner: string; cents: number; status: string; rank: number; credited: boolean }>;
  credits: number;
  /** Payments a call or an answer of the current step named (what a step check reads). */
  dirty: Set<string>;
  /**
   * The history entry each callback and poll carries, fixed when it is first sent, so that a resend
   * after a failure carries the same one: the provider sends the same notification again, and the
   * page's poll reads the provider as the failed one did. (Rebuilt at the resend, a callback could
   * carry a status that a concurrent advance had added since, one the service was never sent first.)
   */
  pins: WeakMap<object, { invoice: SimInvoice; index: number }>;
};

const IPN_SECRET = 'simulated-ipn-secret';

const invoiceOf = (state: PaymentsState, pick: number) =>
  state.provider.invoices.length > 0
    ? state.provider.invoices[pick % state.provider.invoices.length]
    : undefined;

export const payments: Domain<PaymentOp, PaymentsState> = {
  name: 'payments',
  kinds: ['pay-create', 'pay-advance', 'pay-callback', 'pay-poll'],
  weight: 0.36,
  state: () => ({
    provider: new SimProvider(),
    payments: new Map(),
    credits: 0,
    dirty: new Set(),
    pins: new WeakMap(),
  }),

  generate(r, g) {
    const roll = r.next() * 0.36;
    if (roll < 0.1)
      return {
        key: g.key,
        kind: 'pay-create',
        by: r.int(0, g.members - 1),
        body: {
          price_amount: amountInput(r),
          price_currency: r.chance(0.95) ? 'usd' : 'eur',
          pay_currency: r.chance(0.95) ? 'usdtbsc' : 'btc',
        },
      };
    if (roll < 0.24)
      return {
        key: undefined,
        kind: 'pay-advance',
        pick: r.int(0, 1_000),
        roll: r.next(),
        badSignature: r.chance(0.03),
      };
    if (roll < 0.32)
      return {
        key: undefined,
        kind: 'pay-callback',
        pick: r.int(0, 1_000),
        back: r.chance(0.4) ? 0 : r.int(1, 4),
        badSignature: r.chance(0.05),
      };
    return {
      key: undefined,
      kind: 'pay-poll',
      pick: r.int(0, 1_000),
      asOwner: r.chance(0.85),
      back: r.chance(0.7) ? 0 : r.int(1, 3),
    };
  },

  owner: (world, op) => (op.kind === 'pay-create' ? memberAt(world, op.by).id : world.admin.id),

  prepare({ state }, op) {
    if (op.kind === 'pay-create') return;
    const invoice = invoiceOf(state, op.pick);
    if (!invoice) return;
    if (op.kind === 'pay-advance') state.provider.advance(invoice, op.roll);
    const back = op.kind === 'pay-advance' ? 0 : op.back;
    state.pins.set(op, { invoice, index: Math.max(0, invoice.history.length - 1 - back) });
  },

  // A provider sends a notification again until it is answered 200, and the payment page polls
  // again: after a failure, the same request goes again without a key (each is safe to repeat).
  resends: (op) => op.kind !== 'pay-create',

  async send({ world, state }, op, plan) {
    let read: ProviderPayment | undefined;
    const pin = state.pins.get(op);
    const deps = (): PaymentsDeps => ({
      db: world.db,
      provider: state.provider.as(
        (invoice) => (invoice === pin?.invoice ? pin.index : invoice.history.length - 1),
        (seen) => {
          read = seen;
        },
      ),
      ipnSecret: IPN_SECRET,
      publicUrl: 'http://simulator.invalid',
      log: { warn: () => {} },
    });
    const run = async (work: Parameters<typeof faulty>[2]) => ({
      ...(await faulty(world, plan, work)),
      seen: read,
    });
    switch (op.kind) {
      case 'pay-create': {
        const member = await sessionOf(world, memberAt(world, op.by));
        return run(() => createPayment(deps(), member, v.parse(createPaymentSchema, op.body), op.key));
      }
      case 'pay-advance':
      case 'pay-callback': {
        if (!pin) return { status: 404 };
        state.dirty.add(pin.invoice.id);
        const body = pin.invoice.history[pin.index];
        const signature = op.badSignature ? 'f'.repeat(128) : ipnSignature(body, IPN_SECRET);
        return run(async () => ({ statusCode: 200, body: await handleIpn(deps(), body, signature) }));
      }
      case 'pay-poll': {
        if (!pin) return { status: 404 };
        const { invoice } = pin;
        state.dirty.add(invoice.id);
        const owner = state.payments.get(invoice.id)?.owner;
        const who = op.asOwner && owner ? owner : memberAt(world, op.pick % world.members.length).id;
        const member = await sessionOf(world, world.members.find((m) => m.id === who) as Member);
        return run(async () => ({
          statusCode: 200,
          body: await paymentStatus(deps(), member, invoice.id),
        }));
      }
    }
  },

  resultId: (answer) => (answer.body as { payment_id?: string } | undefined)?.payment_id,
  summary: (state) => ({ credited: state.credits }),

  // Invoices first: the step's callbacks may have found them.
  learnRank: (op) => (op.kind === 'pay-create' ? 0 : 1),

  learn({ world, model, state }, op, answer) {
    if (answer.status < 200 || answer.status >= 300) return undefined;
    if (op.kind === 'pay-create') {
      const body = answer.body as { payment_id?: string };
      if (!body.payment_id) return 'an invoice answered without a payment id';
      state.dirty.add(body.payment_id);
      if (!state.payments.has(body.payment_id))
        state.payments.set(body.payment_id, {
          owner: world.members[op.by]?.id ?? '',
          cents: v.parse(createPaymentSchema, op.body).price_amount,
          status: 'waiting',
          rank: 0,
          credited: false,
        });
      return undefined;
    }
    // What the service read from the provider; a poll of a payment already credited does not ask, and
    // its answer is the stored payment (a poll sent again after one that stored `finished` and failed).
    const read = (answer.seen ?? (op.kind === 'pay-poll' ? answer.body : undefined)) as
      | Pick<ProviderPayment, 'payment_id' | 'payment_status'>
      | undefined;
    if (!read) return undefined;
    const payment = state.payments.get(read.payment_id);
    if (!payment)
      return `the service asked the provider about ${read.payment_id}, which it never answered for`;
    const rank = PAYMENT_STATUS_RANK[read.payment_status as PaymentStatus] ?? 0;
    if (rank > payment.rank || (rank === payment.rank && read.payment_status === payment.status)) {
      payment.status = read.payment_status;
      payment.rank = rank;
    }
    if (payment.status === 'finished' && !payment.credited) {
      payment.credited = true;
      state.credits += 1;
      model.move(PLATFORM.deposits, walletAccountId(payment.owner, 'business'), payment.cents);
    }
    return undefined;
  },

  // Every step: the number of credits, and each credit and stored status of the payments the step
  // named; in full: every payment.
  async check({ world, state }: Ctx<PaymentsState>, full) {
    const named = [...state.dirty];
    state.dirty.clear();
    // A step that named no payment sent no payment call: nothing of payments could have changed.
    if (!full && named.length === 0) return undefined;
    const { n } = await world.db
      .selectFrom('payment_credits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) !== state.credits)
      return `${n} payments are credited, but the callbacks answered account for ${state.credits}`;
    const credits = await world.db
      .selectFrom('payment_credits as c')
      .innerJoin('crypto_payments as p', (j) =>
        j.onRef('p.provider', '=', 'c.provider').onRef('p.provider_payment_id', '=', 'c.provider_payment_id'),
      )
      .select(['c.provider_payment_id', 'c.amount_cents', 'p.price_amount_cents', 'p.payment_status'])
      .$if(!full, (q) => q.where('c.provider_payment_id', 'in', named))
      .execute();
    const wrong = credits.find(
      (c) =>
        !['finished', 'refunded'].includes(c.payment_status) ||
        Number(c.amount_cents) !== Number(c.price_amount_cents),
    );
    if (wrong)
      return `payment ${wrong.provider_payment_id} is credited ${wrong.amount_cents} while ${wrong.payment_status}`;
    const statuses = await world.db
      .selectFrom('crypto_payments')
      .select(['provider_payment_id', 'payment_status'])
      .$if(!full, (q) => q.where('provider_payment_id', 'in', named))
      .execute();
    for (const p of statuses) {
      const want = state.payments.get(p.provider_payment_id)?.status;
      if (p.payment_status !== want)
        return `payment ${p.provider_payment_id} is ${p.payment_status}, but the provider's answers since make it ${want}`;
    }
    return undefined;
  },
};
