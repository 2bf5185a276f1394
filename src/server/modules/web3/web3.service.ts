import { formatCents } from '../../../shared/money.ts';
import { NOTIFICATION_LINKS } from '../../../shared/notifications.ts';
import {
  WEB3_CHAIN_ID,
  WEB3_CHAIN_NAME,
  WEB3_MESSAGES,
  WEB3_REQUIRED_CONFIRMATIONS,
  WEB3_TOKEN_SYMBOL,
  type Web3Approve,
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
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyMembers } from '../notifications/notifications.service.ts';
import { findUserById } from '../users/users.repository.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import { addressUsableFrom } from '../withdrawals/withdrawals.repository.ts';
import { type ChainReader, createChainReader, type Observation } from './chain-reader.ts';
import { provenOwner } from './wallet-proof.ts';
import {
  findByHash,
  findDeposit,
  insertIfNew,
  listDeposits,
  listOpen,
  moveFrom,
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
  const reject = (reason: string, blockNumber: bigint | null) =>
    moveFrom(trx, row.id, OPEN, {
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
      await moveFrom(trx, row.id, OPEN, {
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
    await moveFrom(trx, row.id, OPEN, { ...seenFields, status: 'awaiting_admin' });
    return;
  }
  if (seen.confirmations < WEB3_REQUIRED_CONFIRMATIONS) {
    await moveFrom(trx, row.id, OPEN, {
      ...seenFields,
      status: 'confirming',
      amount_cents: seen.amountCents,
    });
    return;
  }
  // The hash of a transfer to the deposit address is public the moment it is sent, so anyone could
  // paste another's. Only a transfer from the address the member saved as theirs (with an e-mailed
  // code), or from a wallet they proved theirs, is credited by itself; any other waits for an admin, with the amount the chain showed.
  // A member-saved address counts from when it is usable for withdrawals too (24 hours after it was
  // saved), so saving the sender of a transfer just seen on chain does not make its hash yours.
  const member = await findUserById(trx, row.user_id);
  const change = (await addressUsableFrom(trx, row.user_id)).find((c) => c.network === 'bep20');
  // A wallet the member proved theirs by signing (wallet-proof.ts) counts at once: a signature by the
  // sender's key cannot be copied from the chain as the hash can.
  const ownsSender =
    (member?.bep20?.toLowerCase() === seen.fromAddress && (!change || change.usable_from <= now)) ||
    (await provenOwner(trx, seen.fromAddress)) === row.user_id;
  if (!ownsSender) {
    await moveFrom(trx, row.id, OPEN, {
      ...seenFields,
      status: 'awaiting_admin',
      amount_cents: seen.amountCents,
      reason: WEB3_MESSAGES.fromNotSaved,
    });
    return;
  }
  const won = await moveFrom(trx, row.id, OPEN, {
    ...seenFields,
    status: 'credited',
    amount_cents: seen.amountCents,
    credited_at: now,
  });
  if (won) await credit(trx, row, seen.amountCents, null, now);
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
  await notifyMembers(trx, {
    recipientIds: [row.user_id],
    title: 'Deposit credited',
    message: `Your on-chain deposit of $${formatCents(amountCents)} was added to your Active Wallet.`,
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
  // Another member's hash is refused before the chain is asked about it.
  const existing = await findByHash(db, input.chain_id, input.tx_hash);
  if (existing && existing.user_id !== memberId) throw taken();
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
    const row = await findByHash(trx, input.chain_id, input.tx_hash);
    if (!row) throw new Error('the on-chain deposit just written is missing');
    if (row.user_id !== memberId) throw taken();
    if (seen) await apply(trx, row, seen);
    const after = await findDeposit(trx, row.id);
    if (!after) throw new Error('the on-chain deposit just checked is missing');
    const message = !inserted
      ? WEB3_MESSAGES.alreadySubmitted
      : ctx.reader
        ? WEB3_MESSAGES.submitted
        : WEB3_MESSAGES.submittedAwaitingAdmin;
    return { statusCode: inserted ? 201 : 200, body: { message, deposit: toWeb3Deposit(after) } };
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

export async function approveDeposit(
  db: Db,
  admin: SessionUser,
  id: string,
  input: Web3Approve,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (!isAdmin(admin)) throw forbidden();
  return runOnce(db, admin.user.id, idempotencyKey, { route: 'web3-approve', id, input }, async (trx) => {
    const row = await findDeposit(trx, id);
    if (!row) throw notFound(WEB3_MESSAGES.notFound);
    // An amount the chain has shown is the amount: an admin decides who gets it, not how much.
    if (row.amount_cents !== null && Number(row.amount_cents) !== input.amount)
      throw conflict(WEB3_MESSAGES.amountMismatch(formatCents(Number(row.amount_cents))));
    const now = new Date().toISOString();
    const won = await moveFrom(trx, id, WAITING, {
      status: 'credited',
      amount_cents: input.amount,
      reviewed_by: admin.user.id,
      reviewed_at: now,
      credited_at: now,
      reason: input.reason ?? null,
    });
    if (!won) throw conflict(WEB3_MESSAGES.notWaiting);
    await credit(trx, row, input.amount, admin.user.id, now);
    const after = await findDeposit(trx, id);
    if (!after) throw new Error('the on-chain deposit just approved is missing');
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'web3_deposit.approve',
      targetType: 'web3_deposit',
      targetId: id,
      before: toWeb3Deposit(row),
      after: toWeb3Deposit(after),
      reason: input.reason ?? null,
    });
    return { statusCode: 200, body: { message: WEB3_MESSAGES.approved, deposit: toWeb3Deposit(after) } };
  });
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
    const won = await moveFrom(trx, id, WAITING, {
      status: 'rejected',
      reason: input.reason,
      reviewed_by: admin.user.id,
      reviewed_at: now,
    });
    if (!won) throw conflict(WEB3_MESSAGES.notWaiting);
    const after = await findDeposit(trx, id);
    if (!after) throw new Error('the on-chain deposit just rejected is missing');
    await notifyMembers(trx, {
      recipientIds: [row.user_id],
      title: 'Deposit rejected',
      message: `Your on-chain deposit ${row.tx_hash.slice(0, 10)}… was not accepted. Reason: ${input.reason}`,
      createdBy: admin.user.id,
      link: NOTIFICATION_LINKS.depositCredited,
    });
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'web3_deposit.reject',
      targetType: 'web3_deposit',
      targetId: id,
      before: toWeb3Deposit(row),
      after: toWeb3Deposit(after),
      reason: input.reason,
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
