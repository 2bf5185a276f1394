import { formatCents } from '../../../shared/money.ts';
import type { SettingRules } from '../../../shared/settings.ts';
import {
  TRANSFER_MESSAGES,
  type Transfer,
  type TransferDecision,
  type TransferHistory,
  type TransferLimits,
  type TransferRequest,
  trendPercent,
} from '../../../shared/transfers.ts';
import type { Wallet } from '../../../shared/wallets.ts';
import { type Db, isPostgres } from '../../db/database.ts';
import type { LedgerTransferTable } from '../../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import {
  checkedKey,
  keyRecord,
  type Outcome,
  replayOf,
  runOnce,
} from '../idempotency/idempotency.service.ts';
import { notifyMoneyReceived } from '../notifications/notifications.service.ts';
import type { StoredSubscription } from '../push/push.repository.ts';
import { pushEnabled } from '../push/push.service.ts';
import { readRules, rulesOf } from '../settings/settings.service.ts';
import { findUserById, type TransferParty } from '../users/users.repository.ts';
import {
  holdTransfer,
  insufficientBalance,
  type Move,
  newRow,
  postTransfer,
  settlePending,
  walletAccountId,
} from '../wallets/ledger.service.ts';
import {
  addToDailyTotal,
  findTransferRow,
  listTransfers,
  sentToday,
  subtractFromDailyTotal,
  TRANSFER_KIND,
  type TransferRow,
  transferInOneStatement,
  transferPartiesWithSettings,
  transfersOfMember,
} from './transfers.repository.ts';

// RULES.md "Internal transfers". The sender is always the session's member; the money moves in one
// transaction with the daily-limit counter and the idempotency record.

const statusOf = (row: TransferRow): Transfer['status'] =>
  row.phase === 'single' || row.settlement === 'post'
    ? 'completed'
    : row.settlement === 'void'
      ? 'failed'
      : 'pending';

export function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    amount: formatCents(Number(row.amount_cents)),
    description: row.description,
    created_at: row.created_at,
    status: statusOf(row),
    sender_name: row.sender_name,
    sender_email: row.sender_email,
    recipient_name: row.recipient_name,
    recipient_email: row.recipient_email,
    from: row.from as Wallet,
    to: row.to as Wallet,
  };
}

const utcDay = (iso: string) => iso.slice(0, 10);

async function loadTransfer(db: Db, id: string): Promise<Transfer> {
  const row = await findTransferRow(db, id);
  if (!row) throw notFound('No transfer with this id');
  return toTransfer(row);
}

/** A sent transfer's answer; `push`: the recipient's subscriptions to tell, when money reached them now. */
export type SentOutcome = Outcome & { push?: StoredSubscription[] };

const partyIds = (senderId: string, input: TransferRequest, toSelf: boolean) =>
  toSelf ? [senderId] : [senderId, input.userto_id];

/** The sender and recipient of a transfer, or the refusal: blocked, inactive, unknown. */
function checkedParties(people: TransferParty[], senderId: string, input: TransferRequest, toSelf: boolean) {
  const sender = people.find((u) => u.id === senderId);
  if (!sender || sender.status === 'block') throw forbidden();
  if (sender.is_active !== 'active') throw new AppError(422, TRANSFER_MESSAGES.senderInactive);
  const recipient = toSelf ? sender : people.find((u) => u.id === input.userto_id);
  if (recipient?.role !== 'user') throw notFound(TRANSFER_MESSAGES.recipientNotFound);
  if (recipient.status === 'block') throw new AppError(422, TRANSFER_MESSAGES.recipientBlocked);
  return { sender, recipient };
}

// Members' wallets exist from registration; a missing one fails the credit and the whole transfer.
const moveOf = (senderId: string, recipientId: string, input: TransferRequest): Move => ({
  debitAccountId: walletAccountId(senderId, input.from),
  creditAccountId: walletAccountId(recipientId, input.to),
  amountCents: input.amount,
  kind: TRANSFER_KIND,
  reference: `transfer:${senderId}`,
  description: input.desc ? input.desc : null,
  createdBy: senderId,
});

/** The 201 answer, built from the values in hand (nothing is read back). */
function sentOutcome(
  row: LedgerTransferTable,
  input: TransferRequest,
  sender: TransferParty,
  recipient: TransferParty,
  rules: SettingRules,
): Outcome {
  const review = row.phase === 'pending';
  const transfer: Transfer = {
    id: row.id,
    amount: formatCents(input.amount),
    description: row.description,
    created_at: row.created_at,
    status: review ? 'pending' : 'completed',
    sender_name: sender.fullname,
    sender_email: sender.email,
    recipient_name: recipient.fullname,
    recipient_email: recipient.email,
    from: input.from,
    to: input.to,
  };
  return {
    statusCode: 201,
    body: {
      message: review
        ? TRANSFER_MESSAGES.pendingReview(rules.transferReviewThresholdCents)
        : TRANSFER_MESSAGES.sent,
      transfer,
    },
  };
}

/** The recipient's "Money received" notification for a transfer that completes at once. */
const receivedNotice = (
  row: LedgerTransferTable,
  input: TransferRequest,
  sender: TransferParty,
  recipient: TransferParty,
) => ({
  recipientId: recipient.id,
  senderName: sender.fullname,
  amountCents: input.amount,
  wallet: input.to,
  description: row.description,
});

export async function sendTransfer(
  db: Db,
  asker: SessionUser,
  input: TransferRequest,
  idempotencyKey: string | undefined,
): Promise<SentOutcome> {
  const senderId = asker.user.id;
  if (asker.user.role !== 'user') throw forbidden();
  if (input.user_id !== undefined && input.user_id !== senderId)
    throw forbidden(TRANSFER_MESSAGES.notYourAccount);
  const toSelf = input.userto_id === senderId;
  if (toSelf && input.from === input.to)
    throw badRequest([{ field: 'to', message: TRANSFER_MESSAGES.sameWallet }]);
  const request = { route: 'transfer', input };
  // Money reaching another member is pushed to their devices: their subscriptions are read with them.
  const pushFor = !toSelf && pushEnabled(db) ? input.userto_id : undefined;
  if (isPostgres(db))
    return sendInOneStatement(db, senderId, input, toSelf, idempotencyKey, request, pushFor);

  return runOnce<SentOutcome>(db, senderId, idempotencyKey, request, async (trx) => {
    // Read inside the transaction, with the limits as set now (/admin/settings), in one statement: a
    // block or deactivation a moment ago counts, and a change of the limits applies whole.
    const read = await transferPartiesWithSettings(trx, partyIds(senderId, input, toSelf), pushFor);
    const { sender, recipient } = checkedParties(read.parties, senderId, input, toSelf);
    const rules = rulesOf(read.settingRows);
    const review = input.amount >= rules.transferReviewThresholdCents;
    // Counter first, then the two accounts in id order: every transfer takes its locks in that order.
    const now = new Date().toISOString();
    if (
      !toSelf &&
      !(await addToDailyTotal(trx, senderId, utcDay(now), input.amount, rules.dailyTransferLimitCents))
    )
      throw new AppError(422, TRANSFER_MESSAGES.dailyLimit(rules.dailyTransferLimitCents));
    // The ledger row carries the same instant the counter was charged for: a reject later gives the
    // amount back to the day it was counted on, even for a transfer made at midnight UTC.
    const move = { ...moveOf(senderId, recipient.id, input), createdAt: now };
    const row = review ? await holdTransfer(trx, move) : await postTransfer(trx, move);
    if (review || toSelf) return sentOutcome(row, input, sender, recipient, rules);
    await notifyMoneyReceived(trx, receivedNotice(row, input, sender, recipient));
    return { ...sentOutcome(row, input, sender, recipient, rules), push: read.push };
  });
}

/**
 * PostgreSQL: every write (daily counter, accounts in id order or the hold, ledger row, Idempotency-Key
 * record) is one statement (migration 0008). In one transaction: the members' rows are read and locked
 * for share, with the settings in the same statement (a block or deactivation waits for this transfer,
 * or this transfer sees it), the recipient's notification is written when money reaches another
 * member, and last the money statement, so the accounts' rows stay locked only for it and the COMMIT.
 * A refusal raised by the money statement undoes all of it. As in runOnce, the key's unique index
 * decides, not a look-up beforehand: a repeat under a key fails (on the key's record, or earlier on a
 * rule, e.g. the member deactivated since) and rolls back whole, and every failure looks for a stored
 * answer under the key before it is answered, so a repeat gets the first answer, as does a concurrent
 * request with the same key that committed first. A repeat costs a rolled-back transaction; every first
 * request, one round trip less.
 */
async function sendInOneStatement(
  db: Db,
  senderId: string,
  input: TransferRequest,
  toSelf: boolean,
  idempotencyKey: string | undefined,
  request: unknown,
  pushFor: string | undefined,
): Promise<SentOutcome> {
  // As in runOnce: a malformed key is a 400 before any work, not a failure inside the transaction.
  if (idempotencyKey !== undefined) checkedKey(idempotencyKey);
  let sent: {
    result: Awaited<ReturnType<typeof transferInOneStatement>>;
    outcome: SentOutcome;
    rules: SettingRules;
  };
  try {
    sent = await db.transaction().execute(async (trx) => {
      const read = await transferPartiesWithSettings(trx, partyIds(senderId, input, toSelf), pushFor);
      const { sender, recipient } = checkedParties(read.parties, senderId, input, toSelf);
      const rules = rulesOf(read.settingRows);
      const review = input.amount >= rules.transferReviewThresholdCents;
      const row = newRow(moveOf(senderId, recipient.id, input), review ? 'pending' : 'single');
      const outcome = sentOutcome(row, input, sender, recipient, rules);
      const statement = {
        row,
        debitFirst: row.debit_account_id < row.credit_account_id,
        daily: toSelf
          ? null
          : { userId: senderId, day: utcDay(row.created_at), limitCents: rules.dailyTransferLimitCents },
        key: keyRecord(senderId, idempotencyKey, request, outcome),
      };
      const arrives = !review && !toSelf;
      if (arrives) await notifyMoneyReceived(trx, receivedNotice(row, input, sender, recipient));
      const result = await transferInOneStatement(trx, statement);
      return { result, outcome: arrives ? { ...outcome, push: read.push } : outcome, rules };
    });
  } catch (error) {
    const earlier = await replayOf(db, senderId, idempotencyKey, request);
    if (earlier) return earlier;
    throw error;
  }
  if (sent.result === 'ok') return sent.outcome;
  const earlier = await replayOf(db, senderId, idempotencyKey, request);
  if (earlier) return earlier;
  throw sent.result === 'daily_limit'
    ? new AppError(422, TRANSFER_MESSAGES.dailyLimit(sent.rules.dailyTransferLimitCents))
    : insufficientBalance();
}

/** Spec 3 "Transfer history response": a member's own transfers (an admin may read anyone's). */
export async function transferHistory(
  db: Db,
  asker: SessionUser,
  memberId: string,
  now = new Date(),
): Promise<TransferHistory> {
  if (asker.user.role !== 'admin' && asker.user.id !== memberId)
    throw notFound('No transfers for this member');
  // An admin may read any member's history, but an id that is no member is a 404, not an empty history.
  if (asker.user.role === 'admin' && (await findUserById(db, memberId))?.role !== 'user')
    throw notFound('No transfers for this member');
  const all = (await transfersOfMember(db, memberId)).map((row) => ({
    transfer: toTransfer(row),
    cents: Number(row.amount_cents),
    outgoing: row.sender_id === memberId,
    incoming: row.recipient_id === memberId,
  }));
  type Item = (typeof all)[number];
  // A move between one's own wallets is both sent and received, as the ledger sees it.
  const outgoing = all.filter((t) => t.outgoing);
  const incoming = all.filter((t) => t.incoming);
  // Spec 4: pending and completed count in the statistics; failed does not.
  const counted = (list: Item[]) => list.filter((t) => t.transfer.status !== 'failed');
  const points = (list: Item[], unit?: number) =>
    counted(list).map((t) => ({ created_at: t.transfer.created_at, cents: unit ?? t.cents }));
  const sum = (list: Item[]) => counted(list).reduce((total, t) => total + t.cents, 0);
  const count = (list: Item[], status: Transfer['status']) =>
    list.filter((t) => t.transfer.status === status).length;
  const plain = (list: Item[]) => list.map((t) => t.transfer);
  return {
    transfers: { outgoing: plain(outgoing), incoming: plain(incoming), all: plain(all) },
    stats: {
      total_outgoing: counted(outgoing).length,
      total_incoming: counted(incoming).length,
      total_sent_amount: formatCents(sum(outgoing)),
      total_received_amount: formatCents(sum(incoming)),
      pending_outgoing: count(outgoing, 'pending'),
      pending_incoming: count(incoming, 'pending'),
      completed_outgoing: count(outgoing, 'completed'),
      completed_incoming: count(incoming, 'completed'),
      trends: {
        sent: trendPercent(points(outgoing), now),
        received: trendPercent(points(incoming), now),
        transfers: trendPercent([...points(outgoing, 1), ...points(incoming, 1)], now),
      },
    },
  };
}

export async function allTransfers(
  db: Db,
  asker: SessionUser,
  query: { status?: Transfer['status']; page: number; limit: number },
) {
  if (asker.user.role !== 'admin') throw forbidden();
  const { rows, total } = await listTransfers(db, {
    status: query.status,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { alltransfer: rows.map(toTransfer), total, page: query.page, limit: query.limit };
}

/** An admin completes (the money reaches the recipient) or rejects (it returns) a pending transfer, once. */
/** A decision's outcome; `arrivedFor`: the member an approval just paid (another member than the sender). */
export type DecisionOutcome = Outcome & { arrivedFor?: string };

export async function decideTransfer(
  db: Db,
  admin: SessionUser,
  id: string,
  decision: TransferDecision,
  idempotencyKey: string | undefined,
): Promise<DecisionOutcome> {
  if (admin.user.role !== 'admin') throw forbidden();
  return runOnce<DecisionOutcome>(
    db,
    admin.user.id,
    idempotencyKey,
    { route: 'transfer-decision', id, decision },
    async (trx) => {
      const row = await findTransferRow(trx, id);
      if (!row) throw notFound('No transfer with this id');
      if (statusOf(row) !== 'pending') throw new AppError(409, TRANSFER_MESSAGES.notPending);
      const before = toTransfer(row);
      const approve = decision.status === 'completed';
      // The day's counter always includes a pending transfer's amount; when it no longer covers it, a
      // concurrent rejection of this transfer has just given it back (PostgreSQL: it read `pending` too).
      if (
        !approve &&
        row.sender_id !== row.recipient_id &&
        !(await subtractFromDailyTotal(trx, row.sender_id, utcDay(row.created_at), Number(row.amount_cents)))
      )
        throw new AppError(409, TRANSFER_MESSAGES.notPending);
      await settlePending(trx, id, approve ? 'post' : 'void', admin.user.id);
      if (approve && row.recipient_id !== row.sender_id)
        await notifyMoneyReceived(trx, {
          recipientId: row.recipient_id,
          senderName: row.sender_name,
          amountCents: Number(row.amount_cents),
          wallet: row.to as Wallet,
          description: row.description,
        });
      const after = await loadTransfer(trx, id);
      await insertAudit(trx, {
        actorId: admin.user.id,
        action: approve ? 'transfer.approve' : 'transfer.reject',
        targetType: 'transfer',
        targetId: id,
        before,
        after,
        reason: decision.reason || null,
      });
      return {
        statusCode: 200,
        body: { message: approve ? TRANSFER_MESSAGES.approved : TRANSFER_MESSAGES.rejected, transfer: after },
        ...(approve && row.recipient_id !== row.sender_id ? { arrivedFor: row.recipient_id } : {}),
      };
    },
  );
}

/** GET /transfer/limits: the daily limit and review threshold in force, and what is left of today (UTC). */
export async function transferLimits(db: Db, asker: SessionUser, now = new Date()): Promise<TransferLimits> {
  if (asker.user.role !== 'user') throw forbidden();
  const [rules, sent] = await Promise.all([
    readRules(db),
    sentToday(db, asker.user.id, utcDay(now.toISOString())),
  ]);
  return {
    daily_limit: formatCents(rules.dailyTransferLimitCents),
    review_threshold: formatCents(rules.transferReviewThresholdCents),
    sent_today: formatCents(sent),
    left_today: formatCents(Math.max(0, rules.dailyTransferLimitCents - sent)),
  };
}
