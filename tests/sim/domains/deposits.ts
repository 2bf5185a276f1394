import sharp from 'sharp';
import * as v from 'valibot';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  addDeposit,
  cancelDeposit,
  decideDeposit,
  depositImageOwner,
} from '../../../src/server/modules/deposits/deposits.service.ts';
import { storeImage } from '../../../src/server/modules/uploads/uploads.service.ts';
import { PLATFORM, walletAccountId } from '../../../src/server/modules/wallets/ledger.service.ts';
import { createChainReader } from '../../../src/server/modules/web3/chain-reader.ts';
import { issueChallenge, proofOriginOf, proveWallet } from '../../../src/server/modules/web3/wallet-proof.ts';
import {
  approveDeposit,
  depositById,
  rejectDeposit,
  submitDeposit,
  type Web3Context,
} from '../../../src/server/modules/web3/web3.service.ts';
import { depositDecisionSchema, manualDepositRequestSchema } from '../../../src/shared/deposits.ts';
import {
  WEB3_MESSAGES,
  WEB3_REQUIRED_CONFIRMATIONS,
  web3ApproveSchema,
  web3DepositRequestSchema,
  web3RejectSchema,
} from '../../../src/shared/web3.ts';
import { InjectedFault } from '../fault-plugin.ts';
import type { Rng } from '../prng.ts';
import {
  OTHER_ADDRESS,
  OTHER_TOKEN,
  SIM_DEPOSIT_ADDRESS,
  SIM_TOKEN,
  SimChain,
  TOKEN_DECIMALS,
} from '../sim-chain.ts';
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
import { centsOf, payoutAddressOf, txHash } from './withdrawals.ts';

// Money in by hand and on chain (RULES.md "Deposits (money in)").
// - Manual deposits: the member's report (amount, hash, a screenshot uploaded first, or a name that is
//   not theirs), the admin's approve (the Active Wallet credited) and reject, cancels by the member,
//   the admin or someone else; the same hash twice, decisions twice and at once.
// - On-chain deposits: the member submits a transaction hash; the chain reader reads it from a
//   simulated BEP20 chain (sim-chain.ts) whose confirmations grow with the simulated clock; the
//   member's deposit page re-checks it; the admin approves or rejects what waits for them. Hashes of
//   transfers to the wrong address, of another token, reverted, not mined yet, unknown, submitted twice
//   or by two members. Every member but the first proves a wallet of their own by signing (setup); a
//   transfer is credited by itself only to the prover of its sender, who may take over a deposit another
//   member submitted first; sends from a member's payout address (no proof) wait for an admin.
// - Across the paths: a hash sent on chain is reported as a manual deposit too (before or after), and a
//   manual deposit's hash is submitted on chain: one (chain, hash) credits once.

type Target = 'open' | 'any' | 'bogus' | 'recent';
type Who = 'owner' | 'admin' | 'other';

/** A transfer a member makes on the chain before submitting its hash. */
type ChainSend = {
  /** The member's proven wallet, their payout address (saved, never proven), or nobody's. */
  from: 'own' | 'payout' | 'stranger';
  to: 'deposit' | 'wrong';
  token: 'usdt' | 'other';
  success: boolean;
  cents: number;
  /** Base units past whole cents (rounded down by the reader). */
  dust: boolean;
  /** Blocks until it is mined. */
  delay: number;
};

export type DepositOp =
  | {
      kind: 'dep-add';
      by: number;
      amount: unknown;
      /** A fresh hash, a manual deposit's again, one sent on chain (anyone's), or a malformed one. */
      hash: { fresh: string } | { reuse: number } | { chain: number } | { bad: string };
      image: 'none' | 'upload' | 'foreign';
    }
  | { kind: 'dep-decide'; pick: number; which: Target; status: unknown; reason?: string; wrong: boolean }
  | { kind: 'dep-cancel'; pick: number; which: Target; as: Who; by: number }
  | {
      kind: 'chain-submit';
      by: number;
      hash: string;
      /** A fresh transfer sent now, an earlier hash (anyone's), a manual deposit's, or one the chain never saw. */
      tx: { send: ChainSend } | { reuse: number } | { manual: number } | { unknown: true };
      chainId: unknown;
    }
  | { kind: 'chain-check'; pick: number; as: Who; by: number }
  | { kind: 'chain-approve'; pick: number; which: Target; cents: number; wrong: boolean }
  | { kind: 'chain-reject'; pick: number; which: Target; reason: string };

type ManualStatus = 'pending' | 'approved' | 'rejected' | 'cancelled';
type Manual = { id: string; userId: string; cents: number; hash: string; status: ManualStatus };
type OnChain = {
  id: string;
  userId: string;
  hash: string;
  status: string;
  /** The amount the answers showed last (from the chain or an approval), in cents. */
  cents: number | null;
  credited: boolean;
  reason: string | null;
};

type DepositsState = {
  chain: SimChain;
  web3: Web3Context | undefined;
  manual: Map<string, Manual>;
  manualOrder: string[];
  manualHashes: string[];
  onChain: Map<string, OnChain>;
  chainOrder: string[];
  creditedHashes: Set<string>;
  /** The screenshot each keyed report carries (a retry sends the same name). */
  images: Map<string, string>;
  /** The screenshot each report of this step was given by its upload before the step. */
  uploaded: WeakMap<object, string | undefined>;
  /** Keys (owner|key) whose answer the model has learned. */
  learned: Set<string>;
  credited: { manual: number; chain: number };
  /** A deposit operation was sent in this step (no other operation changes a deposit). */
  sent: boolean;
  /** On-chain deposits an answer learned in this step showed credited or rejected. */
  finalInStep: Set<string>;
};

const UNKNOWN_ID = '00000000-0000-4000-8000-0000000000bb';
/** A hash no transfer has, when a report would reuse a chain hash before any was sent. */
const txHash0 = `0x${'c'.repeat(64)}`;
const WAITING = ['pending', 'awaiting_admin'];
const FINAL = ['credited', 'rejected'];
const DUST = 10n ** BigInt(TOKEN_DECIMALS - 3);

let png: Promise<Buffer> | undefined;
/** A small screenshot, made once. */
const screenshot = () => {
  png ??= sharp({ create: { width: 4, height: 4, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
  return png;
};

const pickFrom = <T>(
  ids: string[],
  map: Map<string, T>,
  pick: number,
  open: (t: T) => boolean,
  which: Target,
) => {
  if (which === 'bogus') return undefined;
  const pool = which === 'open' ? ids.filter((id) => open(map.get(id) as T)) : ids;
  // Open: one of the oldest three (the queue's head, so that decisions at once often name the same);
  // recent: one of the newest five (a member looking at what they just sent).
  const index =
    which === 'open'
      ? pick % Math.min(pool.length, 3)
      : which === 'recent'
        ? pool.length - 1 - (pick % Math.min(pool.length, 5))
        : pick % pool.length;
  return pool.length > 0 ? map.get(pool[index] as string) : undefined;
};

/** The on-chain deposit an admin's decision names: one waiting for them, any, or none. */
const waitingDeposit = (state: DepositsState, op: { pick: number; which: Target }) =>
  pickFrom(state.chainOrder, state.onChain, op.pick, (x) => WAITING.includes(x.status), op.which);

/** Who sends a member-side call: the record's owner, the admin, or another member. */
function asker(world: World, owner: string | undefined, as: Who, by: number): Member {
  if (as === 'admin') return world.admin;
  const own = world.members.find((m) => m.id === owner);
  if (as === 'owner' && own) return own;
  const other = world.members.find((m) => m.id !== owner && m === memberAt(world, by));
  return other ?? (world.members.find((m) => m.id !== owner) as Member);
}

/** Member i's own wallet: a key only the simulator holds, proven by signing in setup (not member 0). */
const walletOf = (i: number) => privateKeyToAccount(keccak256(toHex(`simulated wallet ${i}`)));
const provenAddressOf = (i: number) => walletOf(i).address.toLowerCase();
/** Member 0 proves no wallet: their sends, like everyone's from a payout address, wait for an admin. */
const proves = (i: number) => i !== 0;

/** The member who proved the wallet `address` (lower case), if any. */
function proverOf(world: World, address: string): string | undefined {
  const index = world.members.findIndex((_, i) => proves(i) && provenAddressOf(i) === address);
  return index < 0 ? undefined : world.members[index]?.id;
}

function chainSend(r: Rng): ChainSend {
  return {
    from: r.chance(0.8) ? 'own' : r.chance(0.5) ? 'payout' : 'stranger',
    to: r.chance(0.93) ? 'deposit' : 'wrong',
    token: r.chance(0.95) ? 'usdt' : 'other',
    success: r.chance(0.95),
    cents: r.chance(0.9) ? r.int(100, 50_000) : r.int(0, 99),
    dust: r.chance(0.2),
    delay: r.int(0, 3),
  };
}

/** What the chain must show for a deposit to be credited without an admin (RULES.md, web3.service). */
function creditableOnChain(world: World, state: DepositsState, deposit: OnChain): number | string {
  const tx = state.chain.txs.get(deposit.hash);
  if (!tx) return 'the chain never saw it';
  if (!tx.success) return 'it reverted';
  if (tx.to !== SIM_DEPOSIT_ADDRESS || tx.token !== SIM_TOKEN)
    return 'it paid no USDT to the deposit address';
  const confirmations = state.chain.confirmations(deposit.hash);
  if (confirmations < WEB3_REQUIRED_CONFIRMATIONS) return `it has ${confirmations} confirmations`;
  if (proverOf(world, tx.from) !== deposit.userId) return 'it came from a wallet the member never proved';
  const cents = Number((tx.units * 100n) / 10n ** BigInt(TOKEN_DECIMALS));
  return cents < 1 ? 'it is below a cent' : cents;
}

/** What an admin may approve while the chain check runs: what the chain shows confirmed, sent by nobody else's proven wallet. */
function approvableOnChain(world: World, state: DepositsState, deposit: OnChain): string | undefined {
  const tx = state.chain.txs.get(deposit.hash);
  if (!tx?.success || tx.to !== SIM_DEPOSIT_ADDRESS || tx.token !== SIM_TOKEN)
    return 'the chain shows no such transfer';
  const confirmations = state.chain.confirmations(deposit.hash);
  if (confirmations < WEB3_REQUIRED_CONFIRMATIONS) return `it has ${confirmations} confirmations`;
  const prover = proverOf(world, tx.from);
  if (prover !== undefined && prover !== deposit.userId) return 'another member proved its sender';
  return undefined;
}

export const deposits: Domain<DepositOp, DepositsState> = {
  name: 'deposits',
  kinds: [
    'dep-add',
    'dep-decide',
    'dep-cancel',
    'chain-submit',
    'chain-check',
    'chain-approve',
    'chain-reject',
  ],
  weight: 0.3,
  state: () => ({
    chain: new SimChain(),
    web3: undefined,
    manual: new Map(),
    manualOrder: [],
    manualHashes: [],
    onChain: new Map(),
    chainOrder: [],
    creditedHashes: new Set(),
    images: new Map(),
    uploaded: new WeakMap(),
    learned: new Set(),
    credited: { manual: 0, chain: 0 },
    sent: false,
    finalInStep: new Set(),
  }),

  async setup({ world, state }) {
    // Every member but the first proves a wallet of their own by signing the server's EIP-4361 message.
    const origin = proofOriginOf('https://simulator.invalid');
    for (const [i, m] of world.members.entries()) {
      if (!proves(i)) continue;
      const member = await sessionOf(world, m);
      const account = walletOf(i);
      const address = account.address.toLowerCase();
      const { message } = await issueChallenge(world.db, member, { address }, origin);
      const signature = await account.signMessage({ message });
      await proveWallet(world.db, member, { address, signature }, origin);
    }
    const config = {
      rpcUrl: 'http://chain.simulator.invalid',
      tokenContract: SIM_TOKEN,
      depositAddress: SIM_DEPOSIT_ADDRESS,
      walletConnectProjectId: undefined,
      walletConnectRelayUrl: undefined,
      pollMs: 0,
    };
    state.web3 = {
      config,
      reader: createChainReader({ ...config, transport: state.chain.transport() }),
      log: { warn: () => {} },
    };
  },

  generate(r, g) {
    const roll = r.next();
    if (roll < 0.2)
      return {
        key: g.key,
        kind: 'dep-add',
        by: r.int(0, g.members - 1),
        amount: r.chance(0.7) ? (r.int(100, 100_000) / 100).toFixed(2) : amountInput(r),
        hash: r.chance(0.75)
          ? { fresh: txHash(r) }
          : r.chance(0.4)
            ? { chain: r.int(0, 1_000) }
            : r.chance(0.8)
              ? { reuse: r.int(0, 1_000) }
              : { bad: '0x12' },
        image: r.chance(0.3) ? 'upload' : r.chance(0.95) ? 'none' : 'foreign',
      };
    if (roll < 0.33)
      return {
        key: g.key,
        kind: 'dep-decide',
        pick: r.int(0, 1_000),
        which: r.chance(0.75) ? 'open' : r.chance(0.85) ? 'any' : 'bogus',
        status: r.chance(0.97) ? r.pick(['approved', 'rejected']) : 'maybe',
        ...(r.chance(0.8) ? { reason: r.pick(['Not received', 'ok']) } : {}),
        wrong: r.chance(0.1),
      };
    if (roll < 0.4)
      return {
        key: undefined,
        kind: 'dep-cancel',
        pick: r.int(0, 1_000),
        which: r.chance(0.6) ? 'open' : r.chance(0.9) ? 'any' : 'bogus',
        as: r.chance(0.75) ? 'owner' : r.chance(0.6) ? 'admin' : 'other',
        by: r.int(0, g.members - 1),
      };
    if (roll < 0.62) {
      const t = r.next();
      return {
        key: g.key,
        kind: 'chain-submit',
        by: r.int(0, g.members - 1),
        hash: txHash(r),
        tx:
          t < 0.75
            ? { send: chainSend(r) }
            : t < 0.9
              ? { reuse: r.int(0, 1_000) }
              : t < 0.96
                ? { manual: r.int(0, 1_000) }
                : { unknown: true },
        chainId: r.chance(0.97) ? 56 : 1,
      };
    }
    if (roll < 0.85)
      return {
        key: undefined,
        kind: 'chain-check',
        pick: r.int(0, 1_000),
        as: r.chance(0.8) ? 'owner' : r.chance(0.6) ? 'admin' : 'other',
        by: r.int(0, g.members - 1),
      };
    if (roll < 0.95)
      return {
        key: g.key,
        kind: 'chain-approve',
        pick: r.int(0, 1_000),
        which: r.chance(0.7) ? 'open' : r.chance(0.9) ? 'any' : 'bogus',
        cents: r.int(100, 20_000),
        wrong: r.chance(0.1),
      };
    return {
      key: undefined,
      kind: 'chain-reject',
      pick: r.int(0, 1_000),
      which: r.chance(0.7) ? 'open' : r.chance(0.9) ? 'any' : 'bogus',
      reason: r.chance(0.9) ? 'Not our transfer' : 'no',
    };
  },

  owner: (world, op) =>
    op.kind === 'dep-add' || op.kind === 'chain-submit' ? memberAt(world, op.by).id : world.admin.id,

  prepare({ state }, op) {
    state.sent = true;
    if (op.kind !== 'chain-submit' || !('send' in op.tx)) return;
    const s = op.tx.send;
    const units = BigInt(s.cents) * 10n ** BigInt(TOKEN_DECIMALS - 2) + (s.dust ? DUST : 0n);
    state.chain.send(
      {
        hash: op.hash,
        from:
          s.from === 'own'
            ? provenAddressOf(op.by)
            : s.from === 'payout'
              ? payoutAddressOf(op.by).toLowerCase()
              : OTHER_ADDRESS,
        to: s.to === 'deposit' ? SIM_DEPOSIT_ADDRESS : OTHER_ADDRESS,
        token: s.token === 'usdt' ? SIM_TOKEN : OTHER_TOKEN,
        units,
        success: s.success,
      },
      s.delay,
    );
  },

  async beforeStep(c, op) {
    if (op.kind !== 'dep-add') return;
    try {
      const member = await sessionOf(c.world, memberAt(c.world, op.by));
      c.state.uploaded.set(op, await imageFor(c, op, member));
    } catch (error) {
      // No process is dropped between steps; if one were, the report uploads its own when sent.
      if (!(error instanceof InjectedFault)) throw error;
    }
  },

  async send(c, op, plan) {
    const { world, state } = c;
    const web3 = state.web3 as Web3Context;
    switch (op.kind) {
      case 'dep-add': {
        const member = await sessionOf(world, memberAt(world, op.by));
        const hash =
          'fresh' in op.hash
            ? op.hash.fresh
            : 'bad' in op.hash
              ? op.hash.bad
              : 'chain' in op.hash
                ? (state.chain.hashes[op.hash.chain % Math.max(state.chain.hashes.length, 1)] ?? txHash0)
                : (state.manualHashes[op.hash.reuse % Math.max(state.manualHashes.length, 1)] ?? '0x');
        // Uploaded before the step (beforeStep); a retry sends the same name.
        const image = state.uploaded.has(op) ? state.uploaded.get(op) : await imageFor(c, op, member);
        return faulty(world, plan, () =>
          addDeposit(
            world.db,
            member,
            v.parse(manualDepositRequestSchema, {
              amount: op.amount,
              tx_hash: hash,
              ...(image ? { image } : {}),
            }),
            op.key,
          ),
        );
      }
      case 'dep-decide': {
        const admin = await sessionOf(world, world.admin);
        const d = pickFrom(state.manualOrder, state.manual, op.pick, (m) => m.status === 'pending', op.which);
        const body = {
          status: op.status,
          amount: (((d?.cents ?? 100) + (op.wrong ? 1 : 0)) / 100).toFixed(2),
          user_id: d?.userId ?? memberAt(world, 0).id,
          ...(op.reason ? { reason: op.reason } : {}),
        };
        return faulty(world, plan, () =>
          decideDeposit(world.db, admin, d?.id ?? UNKNOWN_ID, v.parse(depositDecisionSchema, body), op.key),
        );
      }
      case 'dep-cancel': {
        const d = pickFrom(state.manualOrder, state.manual, op.pick, (m) => m.status === 'pending', op.which);
        const who = await sessionOf(world, asker(world, d?.userId, op.as, op.by));
        return faulty(world, plan, async () => ({
          statusCode: 200,
          body: await cancelDeposit(world.db, who, d?.id ?? UNKNOWN_ID),
        }));
      }
      case 'chain-submit': {
        const member = await sessionOf(world, memberAt(world, op.by));
        const hash =
          'reuse' in op.tx
            ? (state.chain.hashes[op.tx.reuse % Math.max(state.chain.hashes.length, 1)] ?? op.hash)
            : 'manual' in op.tx
              ? (state.manualHashes[op.tx.manual % Math.max(state.manualHashes.length, 1)] ?? op.hash)
              : op.hash;
        return faulty(world, plan, () =>
          submitDeposit(
            world.db,
            web3,
            member,
            v.parse(web3DepositRequestSchema, { chain_id: op.chainId, tx_hash: hash }),
            op.key,
          ),
        );
      }
      case 'chain-check': {
        const d = pickFrom(
          state.chainOrder,
          state.onChain,
          op.pick,
          () => true,
          op.pick % 10 < 7 ? 'recent' : 'any',
        );
        const who = await sessionOf(world, asker(world, d?.userId, op.as, op.by));
        return faulty(world, plan, async () => ({
          statusCode: 200,
          body: await depositById(world.db, web3, who, d?.id ?? UNKNOWN_ID),
        }));
      }
      case 'chain-approve': {
        const admin = await sessionOf(world, world.admin);
        const d = waitingDeposit(state, op);
        // The amount the admin's screen shows (what the chain showed), else the one they checked.
        const cents = (d?.cents ?? op.cents) + (op.wrong ? 1 : 0);
        return faulty(world, plan, () =>
          approveDeposit(
            world.db,
            web3,
            admin,
            d?.id ?? UNKNOWN_ID,
            v.parse(web3ApproveSchema, {
              amount: (cents / 100).toFixed(2),
              reason: 'Checked on the explorer',
            }),
            op.key,
          ),
        );
      }
      case 'chain-reject': {
        const admin = await sessionOf(world, world.admin);
        const d = waitingDeposit(state, op);
        return faulty(world, plan, async () => ({
          statusCode: 200,
          body: await rejectDeposit(
            world.db,
            admin,
            d?.id ?? UNKNOWN_ID,
            v.parse(web3RejectSchema, { reason: op.reason }),
          ),
        }));
      }
    }
  },

  resultId: (answer) => (answer.body as { deposit?: { id: string } } | undefined)?.deposit?.id,
  summary: (state) => ({
    manual_deposits_credited: state.credited.manual,
    chain_deposits_credited: state.credited.chain,
    chain_rpc_calls: state.chain.calls,
  }),
  // Reports and submits first (a decision or a check in the same step may find them), then decisions,
  // then checks: a check's answer may show what an approval in the same step did.
  learnRank: (op) =>
    op.kind === 'dep-add' || op.kind === 'chain-submit' ? 0 : op.kind === 'chain-check' ? 2 : 1,

  learn(c, op, answer, ownerKey) {
    if (answer.status < 200 || answer.status >= 300) return undefined;
    // A replay of an answer learned before is that answer as it was then: it teaches nothing new (the
    // first replay after a lost answer is the first the client hears of it, and is learned).
    const again = answer.replayed === true && ownerKey !== undefined && c.state.learned.has(ownerKey);
    if (ownerKey) c.state.learned.add(ownerKey);
    if (op.kind.startsWith('dep-')) return learnManual(c, op, answer.body, again);
    return learnOnChain(c, op, answer.body, again);
  },

  async check({ world, state }, full) {
    // A step that sent no deposit operation changed no deposit: its books are the core check's.
    const sent = state.sent;
    state.sent = false;
    state.finalInStep.clear();
    if (!full && !sent) return undefined;
    // In full, every deposit; in a step, those written or decided at its instant (the simulator's own
    // indexes, world.ts): a deposit the step changed without stamping it is the next full check's.
    const now = new Date().toISOString();
    const manual = await world.db
      .selectFrom('manual_deposits')
      .select(['id', 'status'])
      .$if(!full, (q) => q.where((eb) => eb.or([eb('created_at', '=', now), eb('decided_at', '=', now)])))
      .execute();
    if (full && manual.length !== state.manual.size)
      return `${manual.length} manual deposits are stored, but the answers account for ${state.manual.size}`;
    for (const row of manual)
      if (row.status !== state.manual.get(row.id)?.status)
        return `manual deposit ${row.id} is ${row.status}, but the answers make it ${state.manual.get(row.id)?.status}`;
    const onChain = await world.db
      .selectFrom('web3_deposits')
      .select(['id', 'status', 'ledger_transfer_id', 'chain_id', 'tx_hash'])
      .$if(!full, (q) => q.where((eb) => eb.or([eb('created_at', '=', now), eb('updated_at', '=', now)])))
      .execute();
    if (full && onChain.length !== state.onChain.size)
      return `${onChain.length} on-chain deposits are stored, but the answers account for ${state.onChain.size}`;
    for (const row of onChain) {
      const want = state.onChain.get(row.id);
      if (row.status !== want?.status)
        return `on-chain deposit ${row.id} is ${row.status}, but the answers make it ${want?.status}`;
      if ((row.ledger_transfer_id !== null) !== want.credited)
        return `on-chain deposit ${row.id} has ledger transfer ${row.ledger_transfer_id}, but the answers say credited: ${want.credited}`;
    }
    // Each deposit (manual or on-chain, by its reference) is credited at most once.
    const references = [
      ...manual.map((d) => `manual-deposit:${d.id}`),
      ...onChain.map((d) => `web3-deposit:${d.chain_id}:${d.tx_hash}`),
    ];
    if (!full && references.length === 0) return undefined;
    const twice = await world.db
      .selectFrom('ledger_transfers')
      .select(['reference', (eb) => eb.fn.countAll<number>().as('n')])
      .where('kind', '=', 'deposit')
      .$if(full, (q) => q.where('reference', 'is not', null))
      .$if(!full, (q) => q.where('reference', 'in', references))
      .groupBy('reference')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .executeTakeFirst();
    if (twice) return `the deposit ${twice.reference} is credited ${twice.n} times`;
    return undefined;
  },
};

/** The screenshot a report names: uploaded first by its member (as the client does), or someone else's. */
async function imageFor(
  { world, state }: Ctx<DepositsState>,
  op: Extract<DepositOp, { kind: 'dep-add' }> & { key?: string },
  member: Awaited<ReturnType<typeof sessionOf>>,
): Promise<string | undefined> {
  if (op.image === 'none') return undefined;
  if (op.image === 'foreign') return 'a0b1c2d3e4f5.webp';
  const cacheKey = op.key ? `${op.by}|${op.key}` : undefined;
  const cached = cacheKey ? state.images.get(cacheKey) : undefined;
  if (cached) return cached;
  try {
    const ownerId = await depositImageOwner(world.db, member);
    const stored = await storeImage(world.db, world.dataDir, {
      bytes: await screenshot(),
      ownerId,
      purpose: 'deposit',
    });
    if (cacheKey) state.images.set(cacheKey, stored.name);
    return stored.name;
  } catch (error) {
    // A dropped process: the upload failed as the request would (its client sends both again).
    if (error instanceof InjectedFault) throw error;
    // 429 past the uploads an hour allows: the report goes without its screenshot.
    return undefined;
  }
}

function learnManual(
  { model, state }: Ctx<DepositsState>,
  op: DepositOp,
  body: unknown,
  again: boolean,
): string | undefined {
  const d = (
    body as { deposit?: { id: string; status: string; amount: string; user_id: string; tx_hash: string } }
  ).deposit;
  if (!d) return `${op.kind} answered without a deposit`;
  if (op.kind === 'dep-add') {
    if (state.manual.has(d.id)) return undefined; // a replay
    const same = [...state.manual.values()].find(
      (m) => m.hash === d.tx_hash && (m.status === 'pending' || m.status === 'approved'),
    );
    if (same)
      return `the hash ${d.tx_hash} was reported twice (${same.id}, ${d.id}) while the first is ${same.status}`;
    if (state.creditedHashes.has(d.tx_hash))
      return `the hash ${d.tx_hash}, already credited, was taken as a manual deposit`;
    if (d.status !== 'pending') return `a new manual deposit is ${d.status}`;
    state.manual.set(d.id, {
      id: d.id,
      userId: d.user_id,
      cents: centsOf(d.amount),
      hash: d.tx_hash,
      status: 'pending',
    });
    state.manualOrder.push(d.id);
    state.manualHashes.push(d.tx_hash);
    return undefined;
  }
  const m = state.manual.get(d.id);
  if (!m) return `${op.kind} answered for ${d.id}, a deposit never reported`;
  if (op.kind === 'dep-decide' && op.wrong) return `a decision naming the wrong amount was answered 200`;
  if (op.kind === 'dep-cancel' && op.as === 'other')
    return `a member cancelled another member's deposit ${d.id}`;
  if (m.status !== 'pending') {
    if (again && m.status === d.status) return undefined;
    return `manual deposit ${d.id} was decided twice: ${m.status}, then ${d.status}`;
  }
  m.status = d.status as ManualStatus;
  if (d.status === 'approved') {
    // One (chain, hash) credits once, whatever the path.
    if (state.creditedHashes.has(m.hash)) return `the hash ${m.hash} was credited twice (approved by hand)`;
    state.creditedHashes.add(m.hash);
    state.credited.manual += 1;
    model.move(PLATFORM.deposits, walletAccountId(m.userId, 'business'), m.cents);
  }
  return undefined;
}

function learnOnChain(
  { world, model, state }: Ctx<DepositsState>,
  op: DepositOp,
  body: unknown,
  again: boolean,
): string | undefined {
  const d = (
    body as {
      deposit?: {
        id: string;
        status: string;
        amount: string | null;
        user_id: string;
        tx_hash: string;
        reason: string | null;
      };
    }
  ).deposit;
  if (!d) return `${op.kind} answered without a deposit`;
  let known = state.onChain.get(d.id);
  if (known && again) return undefined;
  if (!known) {
    if (op.kind !== 'chain-submit') return `${op.kind} answered for ${d.id}, a deposit never submitted`;
    known = {
      id: d.id,
      userId: d.user_id,
      hash: d.tx_hash,
      status: 'pending',
      cents: null,
      credited: false,
      reason: null,
    };
    state.onChain.set(d.id, known);
    state.chainOrder.push(d.id);
  }
  if (op.kind === 'chain-submit' && d.user_id !== memberAt(world, op.by).id)
    return `member ${memberAt(world, op.by).id} submitted ${d.tx_hash}, and was answered with ${d.user_id}'s deposit`;
  // Submitting someone's hash: it moves to the submitter only when they proved its sender (or the chain
  // had not shown it within a day), never once credited.
  const sender = state.chain.txs.get(known.hash)?.from;
  const reopenable =
    !known.credited &&
    ((sender !== undefined && proverOf(world, sender) === d.user_id) ||
      (known.status === 'rejected' && known.reason === WEB3_MESSAGES.notFoundOnChain));
  if (op.kind === 'chain-submit' && known.userId !== d.user_id) {
    if (!reopenable)
      return `member ${d.user_id} took over ${known.userId}'s deposit ${d.id} without proving its sender`;
    known.userId = d.user_id;
  }
  if (op.kind === 'chain-submit' && known.status === 'rejected' && !FINAL.includes(d.status)) {
    if (!reopenable) return `the rejected deposit ${d.id} was opened again for ${d.user_id}`;
    known.status = d.status;
  }
  if (op.kind === 'chain-check' && op.as === 'other') return `a member saw another member's deposit ${d.id}`;
  // Credited and rejected are final. An answer still open after one is a read made before it, by a call
  // of the same step (they run at once, and a check is learned after the decisions): older than what
  // the model knows. In a later step it would be a deposit moving backwards.
  if (FINAL.includes(known.status) && !FINAL.includes(d.status)) {
    if (state.finalInStep.has(d.id)) return undefined;
    return `on-chain deposit ${d.id} was ${known.status}, and is now ${d.status}`;
  }
  if (FINAL.includes(d.status)) state.finalInStep.add(d.id);
  if (d.status === 'credited') {
    if (known.credited) {
      if (op.kind === 'chain-approve') return `on-chain deposit ${d.id} was credited twice (approved again)`;
    } else {
      const cents = d.amount === null ? Number.NaN : centsOf(d.amount);
      if (op.kind === 'chain-approve') {
        if (op.wrong && known.cents !== null) return `an approval naming the wrong amount was answered 200`;
        const refused = approvableOnChain(world, state, known);
        if (refused) return `on-chain deposit ${d.id} was approved though ${refused}`;
      } else {
        const chain = creditableOnChain(world, state, known);
        if (typeof chain === 'string') return `on-chain deposit ${d.id} was credited though ${chain}`;
        if (chain !== cents)
          return `on-chain deposit ${d.id} was credited ${d.amount}, but the chain shows ${chain} cents`;
      }
      if (state.creditedHashes.has(d.tx_hash)) return `the hash ${d.tx_hash} was credited twice`;
      state.creditedHashes.add(d.tx_hash);
      known.credited = true;
      state.credited.chain += 1;
      model.move(PLATFORM.deposits, walletAccountId(known.userId, 'business'), cents);
    }
  } else if (known.credited) return `on-chain deposit ${d.id} was credited, and is now ${d.status}`;
  known.status = d.status;
  known.reason = d.reason;
  known.cents = d.amount === null ? null : centsOf(d.amount);
  return undefined;
}
