import { formatCents, formatUsd } from '../../../shared/money.ts';
import { NOTIFICATION_LINKS } from '../../../shared/notifications.ts';
import {
  CHAIN_CREDIT_MESSAGES,
  WEB3_CHAIN_ID,
  WEB3_CHAIN_NAME,
  WEB3_MESSAGES,
  WEB3_REQUIRED_CONFIRMATIONS,
  WEB3_TOKEN_SYMBOL,
  type Web3Approve,
  type Web3Assign,
  type Web3Deposit,
  type Web3DepositListQuery,
  type Web3DepositRequest,
  type Web3Config as Web3PublicConfig,
  type Web3Reject,
  type Web3Settings,
} from '../../../shared/web3.ts';
import type { Web3Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyMembers } from '../notifications/notifications.service.ts';
import { findUserById } from '../users/users.repository.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import {
  claimChainCredit,
  findChainCredit,
  releaseChainCredit,
  setChainCreditTransfer,
} from './chain-credits.repository.ts';
import { type ChainReader, createChainReader, type Observation } from './chain-reader.ts';
import { provenOwner } from './wallet-proof.ts';
import {
  findByHash,
  findDeposit,
  insertIfNew,
  listDeposits,
  listOpen,
  moveFrom,
  reopen,
  type Web3DepositRow,
} from './web3.repository.ts';

// On-chain deposits (RULES.md "Deposits: Web3 deposit", docs/rules.md "On-chain deposits"). The chain is
// read outside any database transaction (a slow RPC must not hold locks); what was read is then applied
// in one transaction whose conditional update decides: the status change, the ledger credit, and the
// member's notification commit together, once per (chain, hash) whoever submits or re-checks it.

type Log = { warn: (object: unknown, message: string) => void };

export type Web3Context = { config: Web3Config; reader: ChainReader | undefined; log: Log };

export function createWeb3Context(config: Web3Config, log: Log): Web3Context {
  const reader =
    config.rpcUrl && config.tokenContract && config.depositAddress
      ? createChainReader({
          rpcUrl: config.rpcUrl,
          tokenContract: config.tokenContract,
          depositAddress: config.depositAddress,
        })
      : undefined;
  return { config, reader, log };
}

/** A transaction the chain has not shown within this long is rejected. */
const NOT_FOUND_GIVE_UP_MS = 24 * 60 * 60 * 1000;
const OPEN: ('pending' | 'confirming')[] = ['pending', 'confirming'];
/** What an admin may decide: no chain check configured, or one that cannot see the transaction. */
const WAITING: ('awaiting_admin' | 'pending')[] = ['awaiting_admin', 'pending'];

const isAdmin = (asker: SessionUser) => asker.user.role === 'admin';

export function toWeb3Deposit(row: Web3DepositRow): Web3Deposit {
  return {
    id: row.id,
    chain_id: Number(row.chain_id),
    tx_hash: row.tx_hash,
    amount: row.amount_cents === null ? null : formatCents(Number(row.amount_cents)),
    status: row.status,
    confirmations: Number(row.confirmations),
    created_at: row.created_at,
    required_confirmations: WEB3_REQUIRED_CONFIRMATIONS,
    reason: row.reason,
    from_address: row.from_address,
    block_number: row.block_number === null ? null : String(row.block_number),
    credited_at: row.credited_at,
    user_id: row.user_id,
    username: row.username,
    fullname: row.fullname,
  };
}

/** Reads the chain; undefined when it cannot be read now (no RPC, or the RPC failed: nothing changes). */
async function observe(ctx: Web3Context, txHash: string): Promise<Observation | undefined> {
  if (!ctx.reader) return undefined;
  try {
    return await ctx.reader.observe(txHash as `0x${string}`);
  } catch (error) {
    ctx.log.warn(
      { err: error, txHash },
      'on-chain deposit: the RPC could not be read; it is checked again later',
    );
    return undefined;
  }
}

/** Applies what the chain showed to an open deposit, in the caller's transaction. */
async function apply(trx: Db, row: Web3DepositRow, seen: Observation): Promise<void> {
  if (row.status !== 'pending' && row.status !== 'confirming') return;
  const now = new Date().toISOString();
  const move = (change: Parameters<typeof moveFrom>[3]) => moveFrom(trx, row.id, OPEN, change, row.user_id);
  const reject = (reason: string, blockNumber: bigint | null) =>
    move({
      status: 'rejected',
      reason,
      block_number: blockNumber === null ? null : String(blockNumber),
      checked_at: now,
    });
  switch (seen.kind) {
    case 'not_found':
      if (Date.now() - Date.parse(row.created_at) > NOT_FOUND_GIVE_UP_MS) {
        await reject(WEB3_MESSAGES.notFoundOnChain, null);
        return;
      }
      // A confirming transaction that is gone was dropped by a reorganisation: back to pending.
      await move({
        status: 'pending',
        confirmations: 0,
        block_number: null,
        checked_at: now,
      });
      return;
    case 'reverted':
      await reject(WEB3_MESSAGES.reverted, seen.blockNumber);
      return;
    case 'no_transfer':
      await reject(WEB3_MESSAGES.noTransfer, seen.blockNumber);
      return;
    case 'seen':
      break;
  }
  const seenFields = {
    from_address: seen.fromAddress,
    to_address: seen.toAddress,
    block_number: String(seen.blockNumber),
    confirmations: seen.confirmations,
    checked_at: now,
  };
  if (seen.amountCents < 1) {
    await reject(WEB3_MESSAGES.belowOneCent, seen.blockNumber);
    return;
  }
  if (!Number.isSafeInteger(seen.amountCents)) {
    // Too large to be a real USDT deposit: a person looks at it.
    await move({ ...seenFields, status: 'awaiting_admin' });
    return;
  }
  if (seen.confirmations < WEB3_REQUIRED_CONFIRMATIONS) {
    await move({
      ...seenFields,
      status: 'confirming',
      amount_cents: seen.amountCents,
    });
    return;
  }
  // The hash of a transfer to the deposit address is public the moment it is sent, so anyone could
  // paste another's; a saved payout address says where we pay, and anyone can save any address. Only a
  // transfer from a wallet the holder proved theirs by signing (wallet-proof.ts: a signature by the
  // sender's key cannot be copied from the chain as the hash can) is credited by itself; any other
  // waits for an admin, with the amount the chain showed.
  if ((await provenOwner(trx, seen.fromAddress)) !== row.user_id) {
    await move({
      ...seenFields,
      status: 'awaiting_admin',
      amount_cents: seen.amountCents,
      reason: WEB3_MESSAGES.fromNotProven,
    });
    return;
  }
  const claim = await claimChainCredit(trx, {
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    source: 'onchain',
    sourceId: row.id,
    at: now,
  });
  if (claim) {
    // A concurrent check of this very deposit credited it: nothing more to do.
    if (claim.source === 'onchain' && claim.source_id === row.id) return;
    // Credited by another path (a manual deposit): it never credits twice.
    await reject(CHAIN_CREDIT_MESSAGES[claim.source], seen.blockNumber);
    return;
  }
  const won = await move({
    ...seenFields,
    status: 'credited',
    amount_cents: seen.amountCents,
    credited_at: now,
  });
  // Another change (an admin's decision, a takeover) won between the read and this update: the claim
  // is given back, and the next check reads the deposit afresh.
  if (!won) {
    await releaseChainCredit(trx, Number(row.chain_id), row.tx_hash, row.id);
    return;
  }
  await credit(trx, row, seen.amountCents, null, now);
}

/** The ledger credit of a deposit that this transaction has just moved to credited. */
async function credit(
  trx: Db,
  row: Web3DepositRow,
  amountCents: number,
  createdBy: string | null,
  createdAt: string,
): Promise<void> {
  await ensureWallets(trx, row.user_id);
  const transfer = await postTransfer(trx, {
    debitAccountId: PLATFORM.deposits,
    creditAccountId: walletAccountId(row.user_id, 'business'),
    amountCents,
    kind: 'deposit',
    reference: `web3-deposit:${row.chain_id}:${row.tx_hash}`,
    description: `On-chain deposit ${row.tx_hash}`,
    createdBy,
    createdAt,
  });
  await moveFrom(trx, row.id, ['credited'], { ledger_transfer_id: transfer.id });
  await setChainCreditTransfer(trx, Number(row.chain_id), row.tx_hash, transfer.id);
  await notifyMembers(trx, {
    recipientIds: [row.user_id],
    title: 'Deposit credited',
    message: `Your on-chain deposit of ${formatUsd(amountCents)} was added to your Active Wallet.`,
    createdBy,
    link: NOTIFICATION_LINKS.depositCredited,
  });
}

/** Reads the chain for one open deposit and applies it; answers the deposit as it is afterwards. */
export async function recheck(db: Db, ctx: Web3Context, id: string): Promise<Web3DepositRow | undefined> {
  const before = await findDeposit(db, id);
  if (!before || (before.status !== 'pending' && before.status !== 'confirming') || !ctx.reader)
    return before;
  const seen = await observe(ctx, before.tx_hash);
  if (!seen) return before;
  return db.transaction().execute(async (trx) => {
    const row = await findDeposit(trx, id);
    if (row) await apply(trx, row, seen);
    return findDeposit(trx, id);
  });
}

/** The background job's pass: every open deposit, re-read from the chain. */
export async function recheckOpen(db: Db, ctx: Web3Context, batch = 100): Promise<number> {
  if (!ctx.reader) return 0;
  const open = await listOpen(db, batch);
  for (const { id } of open) await recheck(db, ctx, id);
  return open.length;
}

/**
 * Whether `asker` may take over (or open again) a deposit they submit the hash of: the prover of its
 * sender's wallet may, whoever holds it, unless it is credited (final); anyone may open again one the
 * chain did not show within a day, since it may have been mined since.
 */
async function mayReopen(
  trx: Db,
  row: Web3DepositRow,
  askerId: string,
  seen: Observation | undefined,
): Promise<boolean> {
  if (row.status === 'credited') return false;
  if (row.status === 'rejected' && row.reason === WEB3_MESSAGES.notFoundOnChain) return true;
  const sender = seen?.kind === 'seen' ? seen.fromAddress : row.from_address;
  return sender !== null && (await provenOwner(trx, sender)) === askerId;
}

export async function submitDeposit(
  db: Db,
  ctx: Web3Context,
  asker: SessionUser,
  input: Web3DepositRequest,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (isAdmin(asker)) throw forbidden();
  const memberId = asker.user.id;
  const taken = () =>
    conflict(WEB3_MESSAGES.hashTaken, [{ field: 'tx_hash', message: WEB3_MESSAGES.hashTaken }]);
  const creditedElsewhere = (source: keyof typeof CHAIN_CREDIT_MESSAGES) =>
    conflict(CHAIN_CREDIT_MESSAGES[source], [{ field: 'tx_hash', message: CHAIN_CREDIT_MESSAGES[source] }]);
  // A hash another path credited is refused before the chain is asked about it (the claim made in the
  // crediting transaction is the judge; this only answers early).
  const credited = await findChainCredit(db, input.chain_id, input.tx_hash);
  if (credited && credited.source !== 'onchain') throw creditedElsewhere(credited.source);
  const existing = await findByHash(db, input.chain_id, input.tx_hash);
  if (existing && existing.user_id !== memberId && existing.status === 'credited') throw taken();
  const seen = await observe(ctx, input.tx_hash);
  return runOnce(db, memberId, idempotencyKey, { route: 'web3-deposit', input }, async (trx) => {
    const now = new Date().toISOString();
    // The unique (chain, hash) index decides between two submits at once: one inserts, the other finds it.
    const inserted = await insertIfNew(trx, {
      id: newId(),
      user_id: memberId,
      chain_id: input.chain_id,
      tx_hash: input.tx_hash,
      amount_cents: null,
      status: ctx.reader ? 'pending' : 'awaiting_admin',
      confirmations: 0,
      from_address: null,
      to_address: null,
      block_number: null,
      reason: null,
      ledger_transfer_id: null,
      reviewed_by: null,
      reviewed_at: null,
      credited_at: null,
      checked_at: null,
      created_at: now,
      updated_at: now,
    });
    let row = await findByHash(trx, input.chain_id, input.tx_hash);
    if (!row) throw new Error('the on-chain deposit just written is missing');
    // Submitting someone's hash never locks its owner out: the prover of the sender takes an uncredited
    // deposit over (or opens their own again), and it is checked as if just sent.
    const reopened =
      !inserted &&
      (row.user_id !== memberId || row.status === 'rejected' || row.status === 'awaiting_admin') &&
      (await mayReopen(trx, row, memberId, seen)) &&
      (await reopen(trx, row.id, row.user_id, {
        userId: memberId,
        status: ctx.reader ? 'pending' : 'awaiting_admin',
        at: now,
      }));
    if (reopened) row = (await findDeposit(trx, row.id)) ?? row;
    if (row.user_id !== memberId) throw taken();
    if (seen) await apply(trx, row, seen);
    const after = await findDeposit(trx, row.id);
    if (!after) throw new Error('the on-chain deposit just checked is missing');
    const fresh = inserted || reopened;
    const message = !fresh
      ? WEB3_MESSAGES.alreadySubmitted
      : ctx.reader
        ? WEB3_MESSAGES.submitted
        : WEB3_MESSAGES.submittedAwaitingAdmin;
    return { statusCode: fresh ? 201 : 200, body: { message, deposit: toWeb3Deposit(after) } };
  });
}

export async function depositList(
  db: Db,
  asker: SessionUser,
  query: Web3DepositListQuery,
): Promise<{ deposits: Web3Deposit[] }> {
  const rows = await listDeposits(db, {
    ...(isAdmin(asker) ? {} : { userId: asker.user.id }),
    ...(query.status ? { status: query.status } : {}),
  });
  return { deposits: rows.map(toWeb3Deposit) };
}

/** One deposit (the member's own, or any for an admin); an open one is re-read from the chain first. */
export async function depositById(
  db: Db,
  ctx: Web3Context,
  asker: SessionUser,
  id: string,
): Promise<{ deposit: Web3Deposit }> {
  const row = await findDeposit(db, id);
  if (!row || (!isAdmin(asker) && row.user_id !== asker.user.id)) throw notFound(WEB3_MESSAGES.notFound);
  const fresh = (await recheck(db, ctx, id)) ?? row;
  return { deposit: toWeb3Deposit(fresh) };
}

/** An admin's decision on a deposit, in its transaction: the deposit as it is now, audited before and after. */
async function audited(
  trx: Db,
  admin: SessionUser,
  action: 'approve' | 'assign' | 'reject',
  before: Web3DepositRow,
  reason: string | null,
): Promise<Web3DepositRow> {
  const after = await findDeposit(trx, before.id);
  if (!after) throw new Error(`the on-chain deposit of this ${action} is missing`);
  await insertAudit(trx, {
    actorId: admin.user.id,
    action: `web3_deposit.${action}`,
    targetType: 'web3_deposit',
    targetId: before.id,
    before: toWeb3Deposit(before),
    after: toWeb3Deposit(after),
    reason,
  });
  return after;
}

export async function approveDeposit(
  db: Db,
  ctx: Web3Context,
  admin: SessionUser,
  id: string,
  input: Web3Approve,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (!isAdmin(admin)) throw forbidden();
  const before = await findDeposit(db, id);
  if (!before) throw notFound(WEB3_MESSAGES.notFound);
  // With the chain check, staff approve only what the chain shows now, confirmed: a transfer that left
  // the chain (a reorganisation) or never reached it is never credited. Without it, the admin's own
  // check on a block explorer is all there is.
  let onChain: Extract<Observation, { kind: 'seen' }> | undefined;
  if (ctx.reader) {
    const seen = await observe(ctx, before.tx_hash);
    if (!seen) throw conflict(WEB3_MESSAGES.chainUnreadable);
    if (seen.kind !== 'seen' || seen.confirmations < WEB3_REQUIRED_CONFIRMATIONS)
      throw conflict(WEB3_MESSAGES.notConfirmedOnChain(WEB3_REQUIRED_CONFIRMATIONS));
    onChain = seen;
  }
  return runOnce(db, admin.user.id, idempotencyKey, { route: 'web3-approve', id, input }, async (trx) => {
    const row = await findDeposit(trx, id);
    if (!row) throw notFound(WEB3_MESSAGES.notFound);
    // An amount the chain has shown is the amount: an admin decides who gets it, not how much.
    const chainCents = onChain
      ? onChain.amountCents
      : row.amount_cents === null
        ? null
        : Number(row.amount_cents);
    if (chainCents !== null && chainCents !== input.amount)
      throw conflict(WEB3_MESSAGES.amountMismatch(formatCents(chainCents)));
    // The deposit belongs to whoever proved its sender's wallet: staff give it to them, not to another.
    if (onChain) {
      const prover = await provenOwner(trx, onChain.fromAddress);
      if (prover !== undefined && prover !== row.user_id) throw conflict(WEB3_MESSAGES.senderProvenByOther);
    }
    const now = new Date().toISOString();
    const won = await moveFrom(
      trx,
      id,
      WAITING,
      {
        status: 'credited',
        amount_cents: input.amount,
        reviewed_by: admin.user.id,
        reviewed_at: now,
        credited_at: now,
        reason: input.reason ?? null,
        ...(onChain
          ? {
              from_address: onChain.fromAddress,
              to_address: onChain.toAddress,
              block_number: String(onChain.blockNumber),
              confirmations: onChain.confirmations,
              checked_at: now,
            }
          : {}),
      },
      row.user_id,
    );
    if (!won) throw conflict(WEB3_MESSAGES.notWaiting);
    // One (chain, hash) credits once, whatever the path: the claim rolls this approval back if another
    // path credited it first.
    const claim = await claimChainCredit(trx, {
      chainId: Number(row.chain_id),
      txHash: row.tx_hash,
      source: 'onchain',
      sourceId: row.id,
      at: now,
    });
    if (claim) throw conflict(CHAIN_CREDIT_MESSAGES[claim.source]);
    await credit(trx, row, input.amount, admin.user.id, now);
    const after = await audited(trx, admin, 'approve', row, input.reason ?? null);
    return { statusCode: 200, body: { message: WEB3_MESSAGES.approved, deposit: toWeb3Deposit(after) } };
  });
}

/**
 * An admin hands an uncredited deposit to a named member (the one who sent it), audited with a reason.
 * With the chain check it is read again for them at once; without it a rejected one waits for an admin
 * again and any other keeps its status. Credited is final.
 */
export async function assignDeposit(
  db: Db,
  ctx: Web3Context,
  admin: SessionUser,
  id: string,
  input: Web3Assign,
): Promise<{ message: string; deposit: Web3Deposit }> {
  if (!isAdmin(admin)) throw forbidden();
  const result = await db.transaction().execute(async (trx) => {
    const row = await findDeposit(trx, id);
    if (!row) throw notFound(WEB3_MESSAGES.notFound);
    const member = await findUserById(trx, input.user_id);
    if (member?.role !== 'user')
      throw badRequest([{ field: 'user_id', message: WEB3_MESSAGES.memberRequired }]);
    if (row.status === 'credited') throw conflict(WEB3_MESSAGES.assignFinal);
    if (row.user_id === member.id) throw conflict(WEB3_MESSAGES.assignSame);
    const now = new Date().toISOString();
    const moved = await reopen(trx, id, row.user_id, {
      userId: member.id,
      // With the chain check it is read again for its new holder (credited if they proved the sender).
      status: ctx.reader ? 'pending' : row.status === 'rejected' ? 'awaiting_admin' : 'keep',
      at: now,
    });
    if (!moved) throw conflict(WEB3_MESSAGES.assignFinal);
    const after = await audited(trx, admin, 'assign', row, input.reason);
    return after;
  });
  const fresh = (await recheck(db, ctx, id)) ?? result;
  return { message: WEB3_MESSAGES.assigned, deposit: toWeb3Deposit(fresh) };
}

export async function rejectDeposit(
  db: Db,
  admin: SessionUser,
  id: string,
  input: Web3Reject,
): Promise<{ message: string; deposit: Web3Deposit }> {
  if (!isAdmin(admin)) throw forbidden();
  return db.transaction().execute(async (trx) => {
    const row = await findDeposit(trx, id);
    if (!row) throw notFound(WEB3_MESSAGES.notFound);
    const now = new Date().toISOString();
    const won = await moveFrom(
      trx,
      id,
      WAITING,
      { status: 'rejected', reason: input.reason, reviewed_by: admin.user.id, reviewed_at: now },
      row.user_id,
    );
    if (!won) throw conflict(WEB3_MESSAGES.notWaiting);
    const after = await audited(trx, admin, 'reject', row, input.reason);
    await notifyMembers(trx, {
      recipientIds: [row.user_id],
      title: 'Deposit rejected',
      message: `Your on-chain deposit ${row.tx_hash.slice(0, 10)}… was not accepted. Reason: ${input.reason}`,
      createdBy: admin.user.id,
      link: NOTIFICATION_LINKS.depositCredited,
    });
    return { message: WEB3_MESSAGES.rejected, deposit: toWeb3Deposit(after) };
  });
}

export async function publicConfig(ctx: Web3Context): Promise<Web3PublicConfig> {
  // A wallet sends token base units: without the token's decimals read from its contract, no sending.
  const decimals = ctx.reader ? await ctx.reader.tokenDecimals().catch(() => null) : null;
  return {
    chain_id: WEB3_CHAIN_ID,
    chain_name: WEB3_CHAIN_NAME,
    token_symbol: WEB3_TOKEN_SYMBOL,
    token_contract: ctx.config.tokenContract ?? null,
    deposit_address: ctx.config.depositAddress ?? null,
    required_confirmations: WEB3_REQUIRED_CONFIRMATIONS,
    chain_check: ctx.reader !== undefined,
    walletconnect_project_id: ctx.config.walletConnectProjectId ?? null,
    token_decimals: decimals,
    walletconnect_relay_url: ctx.config.walletConnectRelayUrl ?? null,
  };
}

export function adminSettings(ctx: Web3Context, asker: SessionUser): { settings: Web3Settings } {
  if (!isAdmin(asker)) throw forbidden();
  return {
    settings: {
      chain_id: WEB3_CHAIN_ID,
      chain_name: WEB3_CHAIN_NAME,
      token_contract: ctx.config.tokenContract ?? null,
      deposit_address: ctx.config.depositAddress ?? null,
      required_confirmations: WEB3_REQUIRED_CONFIRMATIONS,
      rpc_configured: ctx.reader !== undefined,
      walletconnect_configured: ctx.config.walletConnectProjectId !== undefined,
      poll_interval_ms: ctx.config.pollMs,
    },
  };
}
