import {
  type CtoPayment,
  type CtoPayout,
  type CtoPreview,
  CTO_MESSAGES as M,
  monthEnd,
  previousMonth,
} from '../../../shared/cto.ts';
import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatCents } from '../../../shared/money.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { CtoPaymentTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { excludedIds } from '../rewards/rank-exclusions.repository.ts';
import { exclusionsOf } from '../rewards/rank-exclusions.service.ts';
import { unblockedRankHolders } from '../rewards/rank-holders.ts';
import { listRewardPlans } from '../rewards/rewards.repository.ts';
import { readRules } from '../settings/settings.service.ts';
import { findUserById } from '../users/users.repository.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import {
  ctoPayouts,
  depositsBetween,
  findCtoPayment,
  insertCtoPayment,
  insertCtoPayout,
  listCtoPayments,
} from './cto.repository.ts';

// RULES.md "CTO". A month is paid in one transaction whose first write is the month's row (its primary
// key): a second Pay, a concurrent one or one on another server fails there and pays nothing; a crash
// anywhere rolls all of it back, and Pay again pays the month once.

export const CTO_KIND: LedgerKind = 'cto';

const percentText = (bp: number) => `${Math.trunc(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;

function adminOnly(asker: SessionUser) {
  if (asker.user.role !== 'admin') throw forbidden();
}

/** A month that has ended; the default is last month. */
function checkedMonth(month: string | undefined, now: Date): string {
  const chosen = month ?? previousMonth(now);
  if (chosen >= now.toISOString().slice(0, 7))
    throw badRequest([{ field: 'month', message: M.monthInvalid }]);
  return chosen;
}

const toPayment = (row: CtoPaymentTable): CtoPayment => ({
  month: row.month,
  deposits: formatCents(Number(row.deposits_cents)),
  share_percent: percentText(Number(row.share_bp)),
  pool: formatCents(Number(row.pool_cents)),
  members: Number(row.members),
  per_member: formatCents(Number(row.per_member_cents)),
  paid_at: row.paid_at,
});

/**
 * The month's figures as they stand: deposits, pool, the top two ranks and the unblocked members who
 * hold them (a blocked member is no qualifier and takes no share). Members an
 * admin excluded (PUT /cto/{id}) are among the qualifiers but not among the paid, and the pool is split
 * among the paid. Pay calls this inside its transaction, so it pays by the exclusions it reads there.
 */
async function figures(db: Db, month: string) {
  const ladder = await listRewardPlans(db);
  const top = ladder.slice(-2).reverse(); // the highest rank first
  const deposits = await depositsBetween(db, `${month}-01T00:00:00.000Z`, monthEnd(month));
  // The share as set now (/admin/settings); Pay reads it in its own transaction and stores it.
  const shareBp = (await readRules(db)).ctoShareBp;
  const pool = Math.floor((deposits * shareBp) / 10_000);
  const lowest = top.at(-1);
  const holders = lowest ? await unblockedRankHolders(db, ladder, lowest) : [];
  const excluded = await excludedIds(db, 'cto');
  const qualifiers = holders.map((h) => ({ ...h, excluded: excluded.has(h.id) }));
  const paid = qualifiers.filter((q) => !q.excluded);
  const perMember = paid.length ? Math.floor(pool / paid.length) : 0;
  return { top, deposits, shareBp, pool, qualifiers, paid, perMember };
}

/** GET /cto?month (admin): what Pay would pay for the month, or what it paid. */
export async function ctoPreview(
  db: Db,
  admin: SessionUser,
  month: string | undefined,
  now = new Date(),
): Promise<CtoPreview> {
  adminOnly(admin);
  const chosen = checkedMonth(month, now);
  const [f, paid, excluded] = await Promise.all([
    figures(db, chosen),
    findCtoPayment(db, chosen),
    exclusionsOf(db, 'cto'),
  ]);
  return {
    month: chosen,
    deposits: formatCents(f.deposits),
    share_percent: percentText(f.shareBp),
    pool: formatCents(f.pool),
    per_member: formatCents(f.perMember),
    ranks: f.top.map((r) => r.rank),
    qualifiers: f.qualifiers.map((q) => ({
      user_id: q.id,
      username: q.username,
      fullname: q.fullname,
      rank: q.rank,
      team_business: formatCents(q.business),
      excluded: q.excluded,
    })),
    excluded,
    payment: paid ? toPayment(paid) : null,
  };
}

/** POST /cto/pay {month?} (admin): pays the month's pool in equal shares, once. */
export async function payCto(
  db: Db,
  admin: SessionUser,
  month: string | undefined,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<Outcome> {
  adminOnly(admin);
  const chosen = checkedMonth(month, now);
  return runOnce(db, admin.user.id, idempotencyKey, { route: 'cto-pay', month: chosen }, async (trx) => {
    const f = await figures(trx, chosen);
    if (f.top.length === 0) throw new AppError(422, M.noRanks);
    if (f.paid.length === 0) throw new AppError(422, M.nobody);
    if (f.perMember === 0) throw new AppError(422, M.poolTooSmall);
    const paidAt = new Date().toISOString();
    const row: CtoPaymentTable = {
      month: chosen,
      deposits_cents: f.deposits,
      share_bp: f.shareBp,
      pool_cents: f.pool,
      members: f.paid.length,
      per_member_cents: f.perMember,
      paid_by: admin.user.id,
      paid_at: paidAt,
    };
    try {
      await insertCtoPayment(trx, row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(M.alreadyPaid);
      throw error;
    }
    for (const member of f.paid) {
      await ensureWallets(trx, member.id);
      const transfer = await postTransfer(trx, {
        debitAccountId: PLATFORM.income,
        creditAccountId: walletAccountId(member.id, 'working'),
        amountCents: f.perMember,
        kind: CTO_KIND,
        reference: `cto:${chosen}`,
        description: `CTO ${chosen} (${member.rank})`,
        createdBy: admin.user.id,
      });
      await insertCtoPayout(trx, {
        id: transfer.id,
        month: chosen,
        user_id: member.id,
        rank: member.rank,
        amount_cents: f.perMember,
        created_at: paidAt,
      });
    }
    const payment = toPayment(row);
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'cto.pay',
      targetType: 'cto',
      targetId: chosen,
      // Who was left out of the split, by an admin's exclusion.
      after: { ...payment, excluded: f.qualifiers.filter((q) => q.excluded).map((q) => q.id) },
    });
    return { statusCode: 201, body: { message: M.paid, payment } };
  }).catch(async (error: unknown) => {
    // A Pay that lost the race to another request or server: the month is paid, once.
    if (!(error instanceof AppError) && (await findCtoPayment(db, chosen))) throw conflict(M.alreadyPaid);
    throw error;
  });
}

export async function ctoPayments(db: Db, admin: SessionUser) {
  adminOnly(admin);
  return { payments: (await listCtoPayments(db)).map(toPayment) };
}

const toPayout = (row: Awaited<ReturnType<typeof ctoPayouts>>[number]): CtoPayout => ({
  id: row.id,
  month: row.month,
  user_id: row.user_id,
  username: row.username,
  rank: row.rank,
  amount: formatCents(Number(row.amount_cents)),
  created_at: row.created_at,
});

/** GET /cto/transaction/{month} (admin): who was paid that month. */
export async function ctoPayoutsOfMonth(db: Db, admin: SessionUser, month: string) {
  adminOnly(admin);
  if (!(await findCtoPayment(db, month))) throw notFound('No CTO payment for this month');
  return { payouts: (await ctoPayouts(db, { month })).map(toPayout) };
}

/** GET /cto/byid/{id}: a member's CTO payouts (their own, or anyone's for an admin). */
export async function ctoOfMember(db: Db, asker: SessionUser, id: string) {
  if (asker.user.role !== 'admin' && asker.user.id !== id) throw notFound(M.memberNotFound);
  if ((await findUserById(db, id))?.role !== 'user') throw notFound(M.memberNotFound);
  return { payouts: (await ctoPayouts(db, { userId: id })).map(toPayout) };
}
