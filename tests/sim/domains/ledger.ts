import * as v from 'valibot';
import { decideTransfer, sendTransfer } from '../../../src/server/modules/transfers/transfers.service.ts';
import { PLATFORM, walletAccountId } from '../../../src/server/modules/wallets/ledger.service.ts';
import { adjustBalance } from '../../../src/server/modules/wallets/wallets.service.ts';
import { transferDecisionSchema, transferRequestSchema } from '../../../src/shared/transfers.ts';
import { adjustmentSchema } from '../../../src/shared/wallets.ts';
import {
  amountInput,
  type Domain,
  faulty,
  memberAt,
  sessionOf,
  type WalletName,
  type World,
  walletInput,
} from '../world.ts';

// The ledger's own paths: member-to-member transfers (and between one's own wallets), the review hold
// at or above the threshold with the admin's approve and reject, and the admin's wallet adjustments.

type Target = number | 'self' | 'unknown' | 'admin';

export type LedgerOp =
  | {
      kind: 'transfer';
      by: number;
      to: Target;
      body: { amount: unknown; from: unknown; to: unknown; desc?: string };
    }
  | {
      kind: 'decide-transfer';
      pick: number;
      which: 'open' | 'settled' | 'any' | 'bogus';
      body: { status: unknown; reason?: string };
    }
  | {
      kind: 'adjust';
      member: number;
      body: { wallet: unknown; direction: unknown; amount: unknown; reason: unknown };
    };

type Hold = { id: string; from: string; to: string; cents: number };

type LedgerState = {
  /** Review holds not decided yet. */
  open: Map<string, Hold>;
  settled: Set<string>;
  /** Every transfer and adjustment answered so far. */
  known: Map<string, Hold & { completed: boolean }>;
};

const recipientOf = (world: World, to: Target, by: number) =>
  to === 'self'
    ? (world.members[by]?.id ?? '')
    : to === 'unknown'
      ? '00000000-0000-4000-8000-000000000000'
      : to === 'admin'
        ? world.admin.id
        : (world.members[to]?.id ?? '');

/**
 * The transfer id a decision names: an open hold, a hold decided already (a second admin, a second
 * click), any transfer answered so far, or one that does not exist.
 */
function decisionTarget(state: LedgerState, op: Extract<LedgerOp, { kind: 'decide-transfer' }>): string {
  const open = [...state.open.keys()];
  const any = [...state.known.keys()];
  if (op.which === 'open' && open.length > 0) return open[op.pick % open.length] as string;
  if (op.which === 'settled' && state.settled.size > 0) {
    const settled = [...state.settled];
    return settled[op.pick % settled.length] as string;
  }
  if (op.which !== 'bogus' && any.length > 0) return any[op.pick % any.length] as string;
  return '00000000-0000-4000-8000-00000000dead';
}

const isNew = (state: LedgerState, id: string) => !state.known.has(id) && !state.settled.has(id);

export const ledger: Domain<LedgerOp, LedgerState> = {
  name: 'ledger',
  kinds: ['transfer', 'decide-transfer', 'adjust'],
  weight: 0.64,
  state: () => ({ open: new Map(), settled: new Set(), known: new Map() }),

  generate(r, g) {
    const roll = r.next() * 0.64;
    if (roll < 0.36) {
      const by = r.int(0, g.members - 1);
      const t = r.next();
      const to: Target =
        t < 0.75 ? r.int(0, g.members - 1) : t < 0.9 ? 'self' : t < 0.95 ? 'unknown' : 'admin';
      return {
        key: g.key,
        kind: 'transfer',
        by,
        to: to === by ? 'self' : to,
        body: {
          amount: amountInput(r),
          from: walletInput(r),
          to: walletInput(r),
          ...(r.chance(0.2) ? { desc: r.pick(['rent', 'lunch', ' ', 'x'.repeat(300)]) } : {}),
        },
      };
    }
    if (roll < 0.46)
      return {
        key: g.key,
        kind: 'decide-transfer',
        pick: r.int(0, 1_000),
        which: r.chance(0.7) ? 'open' : r.chance(0.35) ? 'settled' : r.chance(0.8) ? 'any' : 'bogus',
        body: {
          status: r.chance(0.97) ? r.pick(['completed', 'failed']) : 'pending',
          ...(r.chance(0.3) ? { reason: 'checked' } : {}),
        },
      };
    return {
      key: g.key,
      kind: 'adjust',
      member: r.int(0, g.members - 1),
      body: {
        wallet: walletInput(r),
        direction: r.chance(0.8) ? 'credit' : r.chance(0.95) ? 'debit' : 'sideways',
        amount: amountInput(r),
        reason: r.chance(0.95) ? 'Simulated correction' : 'no',
      },
    };
  },

  owner: (world, op) => (op.kind === 'transfer' ? memberAt(world, op.by).id : world.admin.id),

  async send({ world, state }, op, plan) {
    const asker = await sessionOf(world, op.kind === 'transfer' ? memberAt(world, op.by) : world.admin);
    switch (op.kind) {
      case 'transfer': {
        const body = { userto_id: recipientOf(world, op.to, op.by), ...op.body };
        return faulty(world, plan, () =>
          sendTransfer(world.db, asker, v.parse(transferRequestSchema, body), op.key),
        );
      }
      case 'decide-transfer': {
        const id = decisionTarget(state, op);
        return faulty(world, plan, () =>
          decideTransfer(world.db, asker, id, v.parse(transferDecisionSchema, op.body), op.key),
        );
      }
      case 'adjust': {
        const body = { user_id: world.members[op.member]?.id ?? '', ...op.body };
        return faulty(world, plan, () =>
          adjustBalance(world.db, asker, v.parse(adjustmentSchema, body), op.key),
        );
      }
    }
  },

  learn({ world, model, state }, op, answer, ownerKey) {
    if (answer.status < 200 || answer.status >= 300) return undefined;
    const body = answer.body as { transfer?: { id: string; status?: string } };
    const id = body.transfer?.id;
    if (!id) return `a ${answer.status} answer to ${op.kind} without a transfer`;
    const request = JSON.stringify(op.kind === 'decide-transfer' ? { ...op.body, id } : op.body);
    const twice = model.sameKeyOnce(ownerKey, request, id);
    if (twice) return twice;
    switch (op.kind) {
      case 'transfer': {
        if (!isNew(state, id)) return undefined;
        const cents = v.parse(transferRequestSchema, { userto_id: 'x', ...op.body }).amount;
        const from = walletAccountId(world.members[op.by]?.id ?? '', op.body.from as WalletName);
        const to = walletAccountId(recipientOf(world, op.to, op.by), op.body.to as WalletName);
        const hold = { id, from, to, cents };
        if (body.transfer?.status === 'pending') {
          model.rows += 1;
          model.fresh.push(id);
          model.add(model.held, from, cents);
          state.open.set(id, hold);
          state.known.set(id, { ...hold, completed: false });
        } else {
          model.move(from, to, cents, id);
          state.known.set(id, { ...hold, completed: true });
        }
        return undefined;
      }
      case 'decide-transfer': {
        const hold = state.open.get(id);
        if (!hold) {
          // Answered before (a replay) is fine; a second settlement of one hold is not.
          if (answer.replayed) return undefined;
          return state.settled.has(id)
            ? `the transfer ${id} was settled twice`
            : `a decision on ${id}, which is no open hold, was answered ${answer.status}`;
        }
        state.open.delete(id);
        state.settled.add(id);
        model.add(model.held, hold.from, -hold.cents);
        if (body.transfer?.status === 'completed') model.move(hold.from, hold.to, hold.cents);
        else if (body.transfer?.status === 'failed') model.rows += 1;
        else return `a decision answered status ${body.transfer?.status}`;
        return undefined;
      }
      case 'adjust': {
        if (!isNew(state, id)) return undefined;
        const input = v.parse(adjustmentSchema, { user_id: 'x', ...op.body });
        const wallet = walletAccountId(world.members[op.member]?.id ?? '', input.wallet);
        const [from, to] =
          input.direction === 'credit' ? [PLATFORM.adjustments, wallet] : [wallet, PLATFORM.adjustments];
        model.move(from, to, input.amount, id);
        state.known.set(id, { id, from, to, cents: input.amount, completed: true });
        return undefined;
      }
    }
  },
};
