import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatCents } from '../../../shared/money.ts';
import { MONEY_NOTIFICATIONS, NOTIFICATION_LINKS } from '../../../shared/notifications.ts';
import type { PayoutNetwork } from '../../../shared/payout-address.ts';
import type { SettingRules } from '../../../shared/settings.ts';
import {
  accountRefusal,
  amountRefusal,
  heldAmountCents,
  payoutChoice,
  type Refusal,
} from '../../../shared/withdrawal-rules.ts';
import {
  WITHDRAWAL_MESSAGES as M,
  type Withdrawal,
  type WithdrawalDecision,
  type WithdrawalKind,
  type WithdrawalListQuery,
  withdrawalFeeCents,
} from '../../../shared/withdrawals.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import type { WithdrawalTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { checkEmailCode, consumeEmailCode } from '../account/email-codes.service.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, replayOf, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyMembers } from '../notifications/notifications.service.ts';
import { findPlan } from '../plans/plans.repository.ts';
import { readRules } from '../settings/settings.service.ts';
import { teamTotalsOnPrincipalBack, teamTotalsOnPrincipalOut } from '../team/team-totals.repository.ts';
import { findParty } from '../topups/topups.repository.ts';
import { checkPlan, invest, lockBeneficiary } from '../topups/topups.service.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  ensureInvestedAccount,
  ensureWallets,
  holdTransfer,
  investedAccountId,
  type Move,
  PLATFORM,
  postTransfer,
  settlePending,
  walletAccountId,
} from '../wallets/ledger.service.ts';
import { investmentFacts, savedAddresses } from './withdrawal-rules.ts';
import {
  addressUsableFrom,
  changePendingAmount,
  closeWithdrawal,
  findWithdrawal,
  insertWithdrawal,
  investmentsOf,
  listWithdrawals,
  openWithdrawalOf,
  type WithdrawalRow,
} from './withdrawals.repository.ts';

// RULES.md "Withdrawals". A request is one transaction: the e-mailed code used up, the request row
// (its partial unique index keeps one pending request per member), and the whole amount held in the
// ledger (net and fee, two pending transfers), with the Idempotency-Key record. A decision or a cancel
// is one transaction too: the row leaves `pending` by a conditional update (the one that succeeds
// settles the holds; any other finds nothing pending and is a 409), then the holds are posted or voided.

export const WITHDRAWAL_KIND: LedgerKind = 'withdrawal';
export const WITHDRAWAL_FEE_KIND: LedgerKind = 'withdrawal_fee';
export const COMPOUND_KIND: LedgerKind = 'compound';

/** The member a decision was about and what to push to them once the transaction has committed. */
export type WithdrawalOutcome = Outcome & { notice?: { memberId: string; title: string; body: string } };

export function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    user_id: row.user_id,
    kind: row.kind,
    amount: formatCents(Number(row.amount_cents)),
    fee: formatCents(Number(row.fee_cents)),
    net_amount: formatCents(Number(row.net_amount_cents)),
    address: row.address,
    network: row.network,
    status: row.status,
    tx_hash: row.tx_hash,
    reason: row.reason,
    topup_id: row.topup_id,
    plan_id: row.plan_id,
    plan_name: row.plan_name,
    created_at: row.created_at,
    decided_at: row.decided_at,
    fullname: row.fullname,
    username: row.username,
    email: row.email,
    email_verified: row.verify_at !== null,
    member_since: row.member_since,
  };
}

function memberOnly(asker: SessionUser): void {
  if (asker.user.role !== 'user') throw forbidden();
}
function adminOnly(asker: SessionUser): void {
  if (asker.user.role !== 'admin') throw forbidden();
}

export type WithdrawalAsk = {
  kind: WithdrawalKind;
  otp: string;
  amountCents?: number;
  network?: PayoutNetwork;
  topupId?: string;
  planId?: string;
};

/** The investment a roi or principal request names: the member's own, else a 404. */
async function ownInvestment(db: Db, userId: string, topupId: string | undefined) {
  const [investment] = topupId ? await investmentsOf(db, userId, topupId) : [];
  if (!investment) throw notFound(M.investmentNotFound);
  return investment;
}

/**
 * The amount a request holds, after the rules of its kind (src/shared/withdrawal-rules.ts, the form's
 * too); every refusal here holds nothing. The investment or plan it names is looked up first (404).
 */
async function amountOf(
  db: Db,
  userId: string,
  ask: WithdrawalAsk,
  now: Date,
  rules: SettingRules,
): Promise<number> {
  const investment =
    ask.kind === 'principal' || ask.kind === 'roi'
      ? investmentFacts(await ownInvestment(db, userId, ask.topupId), now)
      : undefined;
  if (ask.kind === 'compound') checkPlan(await findPlan(db, ask.planId ?? ''), ask.amountCents ?? 0);
  const facts = { minimumCents: rules.withdrawalMinimumCents, feeBp: rules.withdrawalFeeBp, investment };
  refuse(amountRefusal(ask.kind, ask.amountCents, facts));
  return heldAmountCents(ask.kind, ask.amountCents, facts);
}

/** A rule's refusal as the API answers it: a field's 400, or a 422 with its message. */
function refuse(refusal: Refusal | undefined): void {
  if (!refusal) return;
  if (refusal.field) throw badRequest([{ field: refusal.field, message: refusal.message }]);
  throw new AppError(refusal.status, refusal.message);
}

/** The ledger moves a request holds: the net amount and, apart, the fee (RULES.md: its own transfer). */
function movesOf(row: WithdrawalTable): Move[] {
  const reference = `withdrawal:${row.id}`;
  const source =
    row.kind === 'principal' ? investedAccountId(row.user_id) : walletAccountId(row.user_id, 'working');
  if (row.kind === 'compound')
    return [
      {
        debitAccountId: source,
        creditAccountId: investedAccountId(row.user_id),
        amountCents: Number(row.amount_cents),
        kind: COMPOUND_KIND,
        reference,
        description: 'Compound into a new investment',
        createdBy: row.user_id,
      },
    ];
  const moves: Move[] = [
    {
      debitAccountId: source,
      creditAccountId: PLATFORM.withdrawals,
      amountCents: Number(row.net_amount_cents),
      kind: WITHDRAWAL_KIND,
      reference,
      description: `${row.kind === 'income' ? 'Income' : row.kind === 'roi' ? 'ROI' : 'Principal'} withdrawal to ${row.address}`,
      createdBy: row.user_id,
    },
  ];
  if (Number(row.fee_cents) > 0)
    moves.push({
      debitAccountId: source,
      creditAccountId: PLATFORM.fees,
      amountCents: Number(row.fee_cents),
      kind: WITHDRAWAL_FEE_KIND,
      reference,
      description: 'Withdrawal fee',
      createdBy: row.user_id,
    });
  return moves;
}

async function holdAll(
  trx: Db,
  row: WithdrawalTable,
): Promise<{ hold_id: string; fee_hold_id: string | null }> {
  const [net, fee] = movesOf(row);
  try {
    const netHold = await holdTransfer(trx, net as Move);
    const feeHold = fee ? await holdTransfer(trx, fee) : null;
    return { hold_id: netHold.id, fee_hold_id: feeHold?.id ?? null };
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 422) throw new AppError(422, M.insufficient);
    throw error;
  }
}

/** The second pending request of a member (or a principal requested twice) fails on its unique index. */
function refusalOfDuplicate(error: unknown, kind: WithdrawalKind): never {
  if (isUniqueViolation(error)) {
    const text = `${(error as Error).message} ${(error as { constraint?: string }).constraint ?? ''}`;
    throw new AppError(
      422,
      kind === 'principal' && /topup|principal/.test(text) ? M.principalTaken : M.openRequest,
    );
  }
  throw error;
}

/** Every rule of a request but its code, read from `db` (the request's transaction, the second time). */
async function checkRules(db: Db, userId: string, ask: WithdrawalAsk, now: Date) {
  const user = await findUserById(db, userId);
  if (!user || user.status === 'block') throw forbidden();
  const [open, changes] = await Promise.all([openWithdrawalOf(db, userId), addressUsableFrom(db, userId)]);
  const account = {
    emailVerified: user.verify_at !== null,
    openRequest: Boolean(open),
    addresses: savedAddresses(user, changes),
  };
  refuse(accountRefusal(ask.kind, account, now.toISOString(), ask.network));
  const choice = ask.kind === 'compound' ? undefined : payoutChoice(account.addresses, ask.network)?.saved;
  const payout = choice ? { network: choice.network, address: choice.address } : null;
  // The minimum and fee as set now (/admin/settings); in the request's transaction, the ones it keeps.
  const rules = await readRules(db);
  const amountCents = await amountOf(db, userId, ask, now, rules);
  return { payout, amountCents, rules };
}

/**
 * POST /withdrawalrequest/add, /add/roiwithdrawal, /add/principle, /addcompoundwithdrawal. A repeat
 * under the same Idempotency-Key answers from the stored result before any rule is checked again (the
 * code it carried is used up by then). The rules that need no code come first, so a refused request
 * costs no try of the code; then the code is checked (a wrong one counts a try, kept even though the
 * request fails) and, in the transaction that holds the money, used up.
 */
export async function requestWithdrawal(
  db: Db,
  asker: SessionUser,
  ask: WithdrawalAsk,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<Outcome> {
  memberOnly(asker);
  const userId = asker.user.id;
  const request = { route: 'withdrawal', ask };
  const repeat = await replayOf(db, userId, idempotencyKey, request);
  if (repeat) return repeat;

  await checkRules(db, userId, ask, now);
  await checkEmailCode(db, userId, 'withdrawal', ask.otp);

  return runOnce(db, userId, idempotencyKey, request, async (trx) => {
    await consumeEmailCode(trx, userId, 'withdrawal', ask.otp);
    // The rules again, where the money moves: the answer above may be out of date by now (an address
    // changed, ROI withdrawn meanwhile); what is stored is what this transaction read.
    const { payout, amountCents, rules } = await checkRules(trx, userId, ask, now);
    const feeCents = withdrawalFeeCents(ask.kind, amountCents, rules.withdrawalFeeBp);
    const row: WithdrawalTable = {
      id: newId(),
      user_id: userId,
      kind: ask.kind,
      amount_cents: amountCents,
      fee_cents: feeCents,
      net_amount_cents: amountCents - feeCents,
      network: payout?.network ?? null,
      address: payout?.address ?? null,
      topup_id: ask.kind === 'roi' || ask.kind === 'principal' ? (ask.topupId ?? null) : null,
      plan_id: ask.kind === 'compound' ? (ask.planId ?? null) : null,
      status: 'pending',
      hold_id: null,
      fee_hold_id: null,
      tx_hash: null,
      reason: null,
      created_at: new Date().toISOString(),
      decided_at: null,
      decided_by: null,
    };
    if (ask.kind === 'compound') await ensureInvestedAccount(trx, userId);
    const holds = await holdAll(trx, row);
    try {
      await insertWithdrawal(trx, { ...row, ...holds });
    } catch (error) {
      refusalOfDuplicate(error, ask.kind);
    }
    const saved = await findWithdrawal(trx, row.id);
    // Last: it locks the team rows up the sponsor chain (team-totals.repository.ts).
    if (ask.kind === 'principal') await teamTotalsOnPrincipalOut(trx, userId, amountCents);
    return {
      statusCode: 201,
      body: {
        message: ask.kind === 'compound' ? M.compoundRequested : M.requested,
        withdrawal: toWithdrawal(saved as WithdrawalRow),
      },
    };
  });
}

async function settleHolds(trx: Db, row: WithdrawalRow, outcome: 'post' | 'void', by: string) {
  if (row.hold_id) await settlePending(trx, row.hold_id, outcome, by);
  if (row.fee_hold_id) await settlePending(trx, row.fee_hold_id, outcome, by);
}

/** Approving a compound: its hold is released and, in the same transaction, spent on the new investment. */
async function investCompound(trx: Db, row: WithdrawalRow, adminId: string) {
  // Before the holds' accounts: the investment may activate the member (members' rows first).
  await lockBeneficiary(trx, row.user_id);
  await settleHolds(trx, row, 'void', adminId);
  const party = await findParty(trx, row.user_id);
  if (!party) throw notFound(M.notFound);
  const plan = checkPlan(await findPlan(trx, row.plan_id ?? ''), Number(row.amount_cents));
  await invest(trx, {
    payerAccount: walletAccountId(row.user_id, 'working'),
    payer: party,
    beneficiary: party,
    plan,
    type: 'retopup',
    amountCents: Number(row.amount_cents),
  });
}

/**
 * PUT /withdrawalrequest/{id} and the kind-specific decision calls (admin): approve (the holds are
 * posted: net to `withdrawals paid`, fee to `fees`; a compound becomes an investment) or reject (the
 * holds are voided), exactly once. The body names the request's own amount and member (409 otherwise).
 */
export async function decideWithdrawal(
  db: Db,
  admin: SessionUser,
  id: string,
  decision: WithdrawalDecision,
  kinds: readonly WithdrawalKind[] | undefined,
  idempotencyKey: string | undefined,
): Promise<WithdrawalOutcome> {
  adminOnly(admin);
  const adminId = admin.user.id;
  return runOnce<WithdrawalOutcome>(
    db,
    adminId,
    idempotencyKey,
    { route: 'withdrawal-decision', id, decision },
    async (trx) => {
      const row = await findWithdrawal(trx, id);
      if (!row || (kinds && !kinds.includes(row.kind))) throw notFound(M.notFound);
      if (row.status !== 'pending') throw conflict(M.notPending);
      if (Number(row.amount_cents) !== decision.amount || row.user_id !== decision.user_id)
        throw conflict(M.mismatch);
      const approve = decision.status === 'approved';
      const reason = decision.reason?.trim() || null;
      if (approve && row.kind !== 'compound' && !decision.tx_hash)
        throw badRequest([{ field: 'tx_hash', message: M.txHashRequired }]);
      if (!approve && (!reason || reason.length < 3))
        throw badRequest([{ field: 'reason', message: M.reasonRequired }]);
      const decidedAt = new Date().toISOString();
      const closed = await closeWithdrawal(trx, id, {
        status: decision.status,
        decided_at: decidedAt,
        decided_by: adminId,
        tx_hash: approve ? (decision.tx_hash ?? null) : null,
        reason,
      });
      if (!closed) throw conflict(M.notPending);
      if (approve && row.kind === 'compound') await investCompound(trx, row, adminId);
      else await settleHolds(trx, row, approve ? 'post' : 'void', adminId);
      const after = toWithdrawal((await findWithdrawal(trx, id)) as WithdrawalRow);
      const notice = noticeOf(after);
      await notifyMembers(trx, {
        recipientIds: [row.user_id],
        title: notice.title,
        message: notice.body,
        createdBy: adminId,
        link: NOTIFICATION_LINKS.withdrawal,
      });
      await insertAudit(trx, {
        actorId: adminId,
        action: approve ? 'withdrawal.approve' : 'withdrawal.reject',
        targetType: 'withdrawal',
        targetId: id,
        before: toWithdrawal(row),
        after,
        reason,
      });
      if (!approve && row.kind === 'principal')
        await teamTotalsOnPrincipalBack(trx, row.user_id, Number(row.amount_cents));
      return {
        statusCode: 200,
        body: {
          message: approve ? (row.kind === 'compound' ? M.compoundApproved : M.approved) : M.rejected,
          withdrawal: after,
        },
        notice: { memberId: row.user_id, ...notice },
      };
    },
  );
}

function noticeOf(w: Withdrawal): { title: string; body: string } {
  if (w.status === 'rejected')
    return {
      title: MONEY_NOTIFICATIONS.withdrawalRejectedTitle,
      body: MONEY_NOTIFICATIONS.withdrawalRejected({ amount: w.amount, reason: w.reason ?? '' }),
    };
  if (w.kind === 'compound')
    return {
      title: MONEY_NOTIFICATIONS.compoundApprovedTitle,
      body: MONEY_NOTIFICATIONS.compoundApproved({ amount: w.amount, plan: w.plan_name ?? '' }),
    };
  return {
    title: MONEY_NOTIFICATIONS.withdrawalApprovedTitle,
    body: MONEY_NOTIFICATIONS.withdrawalApproved({
      amount: w.amount,
      net: w.net_amount,
      txHash: w.tx_hash ?? '',
    }),
  };
}

/**
 * DELETE /withdrawalrequest/{id}: the member cancels their own pending request; its holds are voided.
 * A retry under the same Idempotency-Key (say, after a lost answer) gets the first answer, not a 409.
 */
export async function cancelWithdrawal(
  db: Db,
  asker: SessionUser,
  id: string,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  memberOnly(asker);
  return runOnce(db, asker.user.id, idempotencyKey, { route: 'withdrawal-cancel', id }, async (trx) => {
    const row = await findWithdrawal(trx, id);
    if (!row || row.user_id !== asker.user.id) throw notFound(M.notFound);
    const closed = await closeWithdrawal(trx, id, {
      status: 'cancelled',
      decided_at: new Date().toISOString(),
      decided_by: asker.user.id,
      tx_hash: null,
      reason: null,
    });
    if (!closed) throw conflict(M.notPending);
    await settleHolds(trx, row, 'void', asker.user.id);
    const after = toWithdrawal((await findWithdrawal(trx, id)) as WithdrawalRow);
    if (row.kind === 'principal') await teamTotalsOnPrincipalBack(trx, row.user_id, Number(row.amount_cents));
    return { statusCode: 200, body: { message: M.cancelled, withdrawal: after } };
  });
}

/** PUT /withdrawalrequest/compound/amount: a new amount for the member's own pending compound request. */
export async function changeCompoundAmount(
  db: Db,
  asker: SessionUser,
  input: { id: string; amount: number },
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  memberOnly(asker);
  const userId = asker.user.id;
  return runOnce(db, userId, idempotencyKey, { route: 'compound-amount', input }, async (trx) => {
    const row = await findWithdrawal(trx, input.id);
    if (!row || row.user_id !== userId) throw notFound(M.notFound);
    if (row.kind !== 'compound' || row.status !== 'pending') throw conflict(M.notCompound);
    checkPlan(await findPlan(trx, row.plan_id ?? ''), input.amount);
    // The row first: it stays pending (and locked on PostgreSQL) while its hold is replaced.
    const changed = await changePendingAmount(trx, row.id, {
      amount_cents: input.amount,
      net_amount_cents: input.amount,
      hold_id: row.hold_id,
    });
    if (!changed) throw conflict(M.notCompound);
    await settleHolds(trx, row, 'void', userId);
    const { hold_id } = await holdAll(trx, {
      ...row,
      amount_cents: input.amount,
      net_amount_cents: input.amount,
    });
    await changePendingAmount(trx, row.id, {
      amount_cents: input.amount,
      net_amount_cents: input.amount,
      hold_id,
    });
    const after = toWithdrawal((await findWithdrawal(trx, row.id)) as WithdrawalRow);
    return { statusCode: 200, body: { message: M.amountChanged, withdrawal: after } };
  });
}

/**
 * POST /withdrawalrequest/debit (admin): records a payout support made to a member outside a request
 * (from Income Working, with its fee, its transaction hash and a reason), as an approved withdrawal.
 */
export async function recordPayout(
  db: Db,
  admin: SessionUser,
  input: { user_id: string; amount: number; tx_hash: string; reason: string },
  idempotencyKey: string | undefined,
): Promise<WithdrawalOutcome> {
  adminOnly(admin);
  const adminId = admin.user.id;
  return runOnce<WithdrawalOutcome>(
    db,
    adminId,
    idempotencyKey,
    { route: 'withdrawal-debit', input },
    async (trx) => {
      const member = await findUserById(trx, input.user_id);
      if (member?.role !== 'user') throw notFound('No member with this id');
      const rules = await readRules(trx);
      // The income withdrawal's amount rules (the minimum, a fee that takes it whole), as for a member.
      refuse(
        amountRefusal('income', input.amount, {
          minimumCents: rules.withdrawalMinimumCents,
          feeBp: rules.withdrawalFeeBp,
        }),
      );
      await ensureWallets(trx, member.id);
      const feeCents = withdrawalFeeCents('income', input.amount, rules.withdrawalFeeBp);
      const now = new Date().toISOString();
      const network = member.bep20 ? 'bep20' : member.trc20 ? 'trc20' : null;
      const row: WithdrawalTable = {
        id: newId(),
        user_id: member.id,
        kind: 'income',
        amount_cents: input.amount,
        fee_cents: feeCents,
        net_amount_cents: input.amount - feeCents,
        network,
        address: network ? member[network] : null,
        topup_id: null,
        plan_id: null,
        status: 'approved',
        hold_id: null,
        fee_hold_id: null,
        tx_hash: input.tx_hash,
        reason: input.reason,
        created_at: now,
        decided_at: now,
        decided_by: adminId,
      };
      try {
        for (const move of movesOf(row)) await postTransfer(trx, { ...move, createdBy: adminId });
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 422) throw new AppError(422, M.insufficient);
        throw error;
      }
      await insertWithdrawal(trx, row);
      const after = toWithdrawal((await findWithdrawal(trx, row.id)) as WithdrawalRow);
      const notice = noticeOf(after);
      await notifyMembers(trx, {
        recipientIds: [member.id],
        title: notice.title,
        message: notice.body,
        createdBy: adminId,
        link: NOTIFICATION_LINKS.withdrawal,
      });
      await insertAudit(trx, {
        actorId: adminId,
        action: 'withdrawal.debit',
        targetType: 'withdrawal',
        targetId: row.id,
        after,
        reason: input.reason,
      });
      return {
        statusCode: 201,
        body: { message: M.debited, withdrawal: after },
        notice: { memberId: member.id, ...notice },
      };
    },
  );
}

/** GET /withdrawalrequest/list: a member's own; an admin's, everyone's (by status and kind). */
export async function withdrawalList(db: Db, asker: SessionUser, query: WithdrawalListQuery) {
  const admin = asker.user.role === 'admin';
  // A member's list is always their own: asking for a member by id is an admin's filter.
  if (query.user_id !== undefined && !admin) throw forbidden();
  const rows = await listWithdrawals(db, {
    ...(admin ? (query.user_id ? { userId: query.user_id } : {}) : { userId: asker.user.id }),
    ...(query.status ? { status: query.status } : {}),
    ...(query.kind ? { kinds: [query.kind] } : {}),
  });
  return { withdrawals: rows.map(toWithdrawal) };
}
