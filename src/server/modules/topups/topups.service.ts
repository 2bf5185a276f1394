import { addDays, dateOf } from '../../../shared/dates.ts';
import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatCents } from '../../../shared/money.ts';
import { formatPercent } from '../../../shared/plans.ts';
import { incomeCapCents } from '../../../shared/settings.ts';
import { TOPUP_MESSAGES, type Topup, type TopupListQuery, type TopupType } from '../../../shared/topups.ts';
import { type Db, isPostgres } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { PlanTable, TopupTable } from '../../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { consume } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import {
  addLevelSource,
  fillLevelEarners,
  levelEarners,
  resetLevelWork,
} from '../income/level-earners.repository.ts';
import { findPlan } from '../plans/plans.repository.ts';
import { readRules } from '../settings/settings.service.ts';
import { teamTotalsOnInvestment } from '../team/team-totals.repository.ts';
import {
  ensureInvestedAccount,
  ensureWallets,
  investedAccountId,
  PLATFORM,
  postTransfer,
  walletAccountId,
} from '../wallets/ledger.service.ts';
import {
  activateMember,
  findMemberByEmailOrUsername,
  findParty,
  hasTopup,
  insertActivationIncome,
  insertTopup,
  listTopups,
  lockAccounts,
  lockMemberRow,
  type TopupParty,
  type TopupRow,
} from './topups.repository.ts';

// RULES.md "Plans, top-ups and activation". A top-up is one transaction: the payer's `business` pays
// the beneficiary's `invested` account (a guarded debit: never below zero), the investment row, the
// beneficiary's activation on their first top-up, and the activation income to qualifying uplines,
// together with the Idempotency-Key record. Any refusal rolls all of it back.

export const PLAN_PURCHASE_KIND: LedgerKind = 'plan_purchase';
export const ACTIVATION_INCOME_KIND: LedgerKind = 'activation_income';

export function toTopup(row: TopupRow): Topup {
  return {
    id: row.id,
    user_id: row.user_id,
    userby_id: row.userby_id,
    plan_id: row.plan_id,
    amount: formatCents(Number(row.amount_cents)),
    roi_paid: formatCents(Number(row.roi_paid_cents)),
    status: row.status,
    created_at: row.created_at,
    type: row.type,
    plan_name: row.plan_name,
    roi_percent: formatPercent(Number(row.roi_bp)),
    duration_days: Number(row.duration_days),
    user_name: row.user_name,
    user_username: row.user_username,
    userby_name: row.userby_name,
    userby_username: row.userby_username,
  };
}

export type TopupOrder = {
  type: TopupType;
  beneficiaryId: string;
  planId: string;
  amountCents: number;
};

/** RULES.md "Plans, top-ups and activation": the uplines who earn activation income on this top-up. */
async function activationEarners(trx: Db, topupId: string, beneficiary: TopupParty, amountCents: number) {
  await resetLevelWork(trx);
  await addLevelSource(trx, {
    source_id: topupId,
    owner_id: beneficiary.id,
    owner_name: beneficiary.username,
    cents: amountCents,
  });
  await fillLevelEarners(trx, 'activation');
  return levelEarners(trx);
}

export function checkPlan(plan: PlanTable | undefined, amountCents: number): PlanTable {
  if (!plan) throw notFound(TOPUP_MESSAGES.planNotFound);
  if (plan.status !== 'active') throw new AppError(422, TOPUP_MESSAGES.planInactive);
  const min = Number(plan.min_amount_cents);
  const max = Number(plan.max_amount_cents);
  if (amountCents < min || amountCents > max)
    throw badRequest([
      { field: 'amount', message: TOPUP_MESSAGES.amountRange(formatCents(min), formatCents(max)) },
    ]);
  return plan;
}

export type Investment = {
  /** The ledger account that pays: the payer's Active Wallet, or the platform's for a code. */
  payerAccount: string;
  /** The paying member; none for a code (the platform pays). */
  payer: TopupParty | undefined;
  beneficiary: TopupParty;
  plan: PlanTable;
  type: TopupTable['type'];
  amountCents: number;
};

/**
 * The money and rows of one investment, in the caller's transaction (with its idempotency record):
 * the purchase into the beneficiary's `invested` account, the investment row, the first top-up's
 * activation and the activation income. A caller that has moved money in its transaction already calls
 * lockBeneficiary first (members' rows before ledger accounts).
 */
/** PostgreSQL: the beneficiary's row, for a caller that moves money before invest (see lockMemberRow). */
export async function lockBeneficiary(trx: Db, memberId: string): Promise<void> {
  if (isPostgres(trx)) await lockMemberRow(trx, memberId);
}

export async function invest(trx: Db, order: Investment): Promise<Topup> {
  const { beneficiary, plan, payer } = order;
  const now = new Date().toISOString();
  const topupId = newId();
  // Activated first: the beneficiary counts among their sponsor's active direct members.
  await activateMember(trx, beneficiary.id, now);
  const earners = await activationEarners(trx, topupId, beneficiary, order.amountCents);
  await ensureInvestedAccount(trx, beneficiary.id);
  for (const earner of earners) await ensureWallets(trx, earner.user_id);
  if (isPostgres(trx))
    await lockAccounts(trx, [
      order.payerAccount,
      investedAccountId(beneficiary.id),
      ...(earners.length ? [PLATFORM.income] : []),
      ...earners.map((e) => walletAccountId(e.user_id, 'working')),
    ]);

  const purchase = await postTransfer(trx, {
    debitAccountId: order.payerAccount,
    creditAccountId: investedAccountId(beneficiary.id),
    amountCents: order.amountCents,
    kind: PLAN_PURCHASE_KIND,
    reference: `topup:${topupId}`,
    description: `${plan.name} for ${beneficiary.username}`,
    createdBy: payer?.id ?? null,
  });
  const row: TopupTable = {
    id: topupId,
    user_id: beneficiary.id,
    userby_id: payer?.id ?? null,
    plan_id: plan.id,
    type: order.type,
    amount_cents: order.amountCents,
    roi_bp: Number(plan.roi_bp),
    duration_days: Number(plan.duration_days),
    roi_paid_cents: 0,
    roi_days_paid: 0,
    // The cap in force now, read in this transaction, stays the investment's own (docs/rules.md "Settings").
    roi_cap_cents: incomeCapCents(order.amountCents, (await readRules(trx)).incomeCapBp),
    status: 'active',
    ledger_transfer_id: purchase.id,
    created_at: purchase.created_at,
    roi_end_date: addDays(dateOf(purchase.created_at), Number(plan.duration_days) - 1),
  };
  await insertTopup(trx, row);

  for (const earner of earners) {
    const income = await postTransfer(trx, {
      debitAccountId: PLATFORM.income,
      creditAccountId: walletAccountId(earner.user_id, 'working'),
      amountCents: earner.amount_cents,
      kind: ACTIVATION_INCOME_KIND,
      reference: `topup:${topupId}`,
      description: `Activation income, level ${earner.level}, from ${beneficiary.username}`,
    });
    await insertActivationIncome(trx, {
      id: newId(),
      topup_id: topupId,
      user_id: earner.user_id,
      level: earner.level,
      percent_bp: earner.percent_bp,
      amount_cents: earner.amount_cents,
      ledger_transfer_id: income.id,
      created_at: income.created_at,
    });
  }

  // Last, so the upline's totals rows (the root's: every investment's) are held only until the commit.
  await teamTotalsOnInvestment(trx, beneficiary.id, order.amountCents);

  const topup = toTopup({
    ...row,
    plan_name: plan.name,
    user_name: beneficiary.fullname,
    user_username: beneficiary.username,
    userby_name: payer?.fullname ?? null,
    userby_username: payer?.username ?? null,
  });
  return topup;
}

/** POST /topup/add, /topup/addretopup and /topup/entry: the payer is always the session's member. */
export async function payTopup(
  db: Db,
  asker: SessionUser,
  order: TopupOrder,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (asker.user.role !== 'user') throw forbidden();
  const payerId = asker.user.id;
  return runOnce(db, payerId, idempotencyKey, { route: 'topup', order }, async (trx) => {
    // Read inside the transaction: a block, a deactivated plan or a spent balance a moment ago counts.
    const payer = await findParty(trx, payerId);
    if (!payer || payer.status === 'block') throw forbidden(TOPUP_MESSAGES.payerBlocked);
    const beneficiary = order.beneficiaryId === payerId ? payer : await findParty(trx, order.beneficiaryId);
    if (beneficiary?.role !== 'user') throw notFound(TOPUP_MESSAGES.memberNotFound);
    if (beneficiary.status === 'block') throw new AppError(422, TOPUP_MESSAGES.memberBlocked);
    const plan = checkPlan(await findPlan(trx, order.planId), order.amountCents);
    if (order.type === 'retopup' && !(await hasTopup(trx, beneficiary.id)))
      throw new AppError(422, TOPUP_MESSAGES.noFirstTopup);

    const topup = await invest(trx, {
      payerAccount: walletAccountId(payerId, 'business'),
      payer,
      beneficiary,
      plan,
      type: order.type,
      amountCents: order.amountCents,
    });
    return { statusCode: 201, body: { message: TOPUP_MESSAGES.created, topup } };
  });
}

const pageOf = (query: TopupListQuery) => ({ offset: (query.page - 1) * query.limit, limit: query.limit });

/** GET /topup/list: a member's top-ups (paid or received); an admin's answer holds every one. */
export async function topupList(db: Db, asker: SessionUser, query: TopupListQuery) {
  const memberId = asker.user.role === 'admin' ? undefined : asker.user.id;
  const { rows, total } = await listTopups(db, memberId, pageOf(query));
  return { topups: rows.map(toTopup), total, page: query.page, limit: query.limit };
}

/** GET /topup/by/{id}: member `id`'s top-ups (paid or received); only your own unless admin. */
export async function topupsOfMember(db: Db, asker: SessionUser, memberId: string, query: TopupListQuery) {
  if (asker.user.role !== 'admin' && asker.user.id !== memberId) throw notFound(TOPUP_MESSAGES.notFound);
  if (asker.user.role === 'admin' && (await findParty(db, memberId))?.role !== 'user')
    throw notFound(TOPUP_MESSAGES.notFound);
  const { rows, total } = await listTopups(db, memberId, pageOf(query));
  return { topups: rows.map(toTopup), total, page: query.page, limit: query.limit };
}

/**
 * GET /topup/member: who a top-up would go to, by e-mail or username, so the payer confirms the name
 * before paying. The e-mail is not answered (a username must not reveal it); limited like the
 * transfer look-up, so it cannot list the members.
 */
export async function findTopupMember(db: Db, asker: SessionUser, key: string) {
  await consume(db, `lookup:${asker.user.id}`, { max: 60, windowMs: 60_000 });
  const found = await findMemberByEmailOrUsername(db, key);
  if (!found) throw notFound(TOPUP_MESSAGES.memberNotFound);
  return { member: found };
}
