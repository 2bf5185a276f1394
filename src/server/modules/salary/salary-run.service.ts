import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatCents } from '../../../shared/money.ts';
import { addMonths, SALARY_MESSAGES as M, monthBefore } from '../../../shared/salary.ts';
import type { SalaryConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { SalaryRunTable, SalaryTierTable } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import {
  type Candidate,
  candidates,
  claimRun,
  finishRun,
  firstTierMonth,
  insertPayment,
  isUnblocked,
  listTiers,
  renewLease,
  settledOrBusyMonths,
} from './salary.repository.ts';

// RULES.md "Salary" (docs/rules.md): a month is paid after it ends, one member per transaction: the
// ledger transfer and the member's salary_payments row (unique per member and month) commit together
// or not at all. Of two runs paying the same member (two servers, ten admins, a retry after a crash),
// one insert fails and its transfer rolls back, so each member is paid once whatever the timing, and
// a run stopped anywhere is finished by the next one.

export const SALARY_KIND: LedgerKind = 'salary';

export type SalaryRunOptions = Pick<SalaryConfig, 'leaseMs' | 'payPauseMs'>;
export type SalaryRunOutcome = { month: string; membersPaid: number; totalCents: number; skipped: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const monthStart = (month: string) => `${month}-01T00:00:00.000Z`;
export const currentMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/** The single highest tier (by amount) whose business and active directs the member meets. */
export function tierFor(tiers: SalaryTierTable[], member: Pick<Candidate, 'business' | 'directs'>) {
  return tiers.find(
    (t) => member.business >= Number(t.min_business_cents) && member.directs >= Number(t.min_active_directs),
  );
}

/** Who qualifies for the month [from, to), each with the tier they would be paid. */
export async function qualifiers(
  db: Db,
  tiers: SalaryTierTable[],
  fromIso: string,
  toIso: string,
  unpaidIn?: string,
) {
  if (tiers.length === 0) return [];
  const lowest = Math.min(...tiers.map((t) => Number(t.min_business_cents)));
  const found = await candidates(db, fromIso, toIso, lowest, unpaidIn);
  return found.flatMap((member) => {
    const tier = tierFor(tiers, member);
    return tier ? [{ member, tier }] : [];
  });
}

/** Pays one ended month (or finishes paying it). `force`: an admin's run goes ahead even if another runs. */
export async function runSalaryMonth(
  db: Db,
  request: { month: string; trigger: SalaryRunTable['trigger']; startedBy: string | null; force: boolean },
  options: SalaryRunOptions,
): Promise<SalaryRunOutcome> {
  const { month } = request;
  const claim = await claimRun(db, { ...request, leaseMs: options.leaseMs });
  if (claim !== 'claimed') return { month, membersPaid: 0, totalCents: 0, skipped: true };
  let membersPaid = 0;
  let totalCents = 0;
  try {
    const tiers = await listTiers(db);
    const due = await qualifiers(db, tiers, monthStart(month), monthStart(addMonths(month, 1)), month);
    for (const { member, tier } of due) {
      const paid = await db
        .transaction()
        .execute(async (trx) => {
          await renewLease(trx, month, options.leaseMs);
          // Blocked since the month's qualifiers were read: no salary, as for level income.
          if (!(await isUnblocked(trx, member.id))) return false;
          await ensureWallets(trx, member.id);
          const transfer = await postTransfer(trx, {
            debitAccountId: PLATFORM.income,
            creditAccountId: walletAccountId(member.id, 'working'),
            amountCents: Number(tier.amount_cents),
            kind: SALARY_KIND,
            reference: `salary:${month}:${member.id}`,
            description: `Salary ${month} (${tier.name})`,
            createdBy: request.startedBy,
          });
          await insertPayment(trx, {
            id: transfer.id,
            user_id: member.id,
            month,
            tier_id: tier.id,
            tier_name: tier.name,
            amount_cents: Number(tier.amount_cents),
            new_business_cents: member.business,
            active_directs: member.directs,
            trigger: request.trigger,
            created_at: transfer.created_at,
          });
          return true;
        })
        .catch((error: unknown) => {
          // Another run paid this member this month first: its transfer stands, this one rolled back.
          if (isUniqueViolation(error)) return false;
          throw error;
        });
      if (paid) {
        membersPaid += 1;
        totalCents += Number(tier.amount_cents);
      }
      if (options.payPauseMs > 0) await sleep(options.payPauseMs);
    }
  } catch (error) {
    await finishRun(db, month, {
      status: 'failed',
      error: error instanceof Error ? error.message.slice(0, 500) : String(error),
    }).catch(() => undefined);
    throw error;
  }
  await finishRun(db, month, { status: 'completed', error: null });
  return { month, membersPaid, totalCents, skipped: false };
}

/** POST /salary/run {month?} (admin, audited): pays an ended month by hand; a repeat pays nothing more. */
export async function runSalaryByAdmin(
  db: Db,
  admin: SessionUser,
  month: string | undefined,
  options: SalaryRunOptions,
  now = new Date(),
) {
  const chosen = month ?? monthBefore(now);
  if (chosen >= currentMonth(now)) throw badRequest([{ field: 'month', message: M.monthInvalid }]);
  const outcome = await runSalaryMonth(
    db,
    { month: chosen, trigger: 'admin', startedBy: admin.user.id, force: true },
    options,
  );
  const run = { month: chosen, members_paid: outcome.membersPaid, total: formatCents(outcome.totalCents) };
  await insertAudit(db, {
    actorId: admin.user.id,
    action: 'salary.run',
    targetType: 'salary',
    targetId: chosen,
    after: run,
  });
  return { message: M.runDone, run };
}

/**
 * The scheduler's work, safe on every server at once: pays every ended month, from the month the
 * oldest tier was created in (at most `catchUpMonths` back, ending last month), that has no completed
 * run, and finishes a run whose server died (its lease ran out). The month under way is never paid.
 */
export async function catchUpSalary(
  db: Db,
  options: SalaryRunOptions & { catchUpMonths: number },
  now = new Date(),
): Promise<SalaryRunOutcome[]> {
  const first = await firstTierMonth(db);
  if (first === undefined) return [];
  const last = monthBefore(now);
  const windowStart = addMonths(last, -(options.catchUpMonths - 1));
  // Months as text: the later of the window's first month and the oldest tier's.
  const from = [first, windowStart].sort()[1] ?? first;
  const done = await settledOrBusyMonths(db, from);
  const outcomes: SalaryRunOutcome[] = [];
  for (let month = from; month <= last; month = addMonths(month, 1))
    if (!done.has(month))
      outcomes.push(
        await runSalaryMonth(db, { month, trigger: 'schedule', startedBy: null, force: false }, options),
      );
  return outcomes;
}
