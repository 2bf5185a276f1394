import { formatCents } from '../../../shared/money.ts';
import type { NeedsAction } from '../../../shared/needs-action.ts';
import type { Db } from '../../db/database.ts';
import { forbidden } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  failedMails,
  pendingManualDeposits,
  pendingWithdrawals,
  retryingMails,
  ticketsWithStatus,
  transfersOnHold,
  unfinishedIncomeRuns,
  unfinishedSalaryRuns,
  type Waiting,
  web3DepositsAwaitingAdmin,
  withdrawalsKinds,
} from './needs-action.repository.ts';

const money = (w: Waiting) => ({ count: w.count, oldest_at: w.oldestAt, amount: formatCents(w.cents) });
const plain = (w: Waiting) => ({ count: w.count, oldest_at: w.oldestAt });

/** What waits for an admin right now (docs/rules.md "Admin dashboard"). Admins only. */
export async function needsAction(db: Db, asker: SessionUser, now = new Date()): Promise<NeedsAction> {
  if (asker.user.role !== 'admin') throw forbidden();
  const nowMs = now.getTime();
  // Independent reads; on PostgreSQL they go out on separate pool connections at once.
  const [withdrawals, roi, manual, web3, transfers, open, inProgress, failed, retrying, income, salary] =
    await Promise.all([
      pendingWithdrawals(db, withdrawalsKinds.income),
      pendingWithdrawals(db, withdrawalsKinds.roi),
      pendingManualDeposits(db),
      web3DepositsAwaitingAdmin(db),
      transfersOnHold(db),
      ticketsWithStatus(db, 'open'),
      ticketsWithStatus(db, 'in_progress'),
      failedMails(db),
      retryingMails(db),
      unfinishedIncomeRuns(db, nowMs),
      unfinishedSalaryRuns(db, nowMs),
    ]);
  return {
    withdrawals: money(withdrawals),
    roi_withdrawals: money(roi),
    manual_deposits: money(manual),
    web3_deposits: money(web3),
    transfers_on_hold: money(transfers),
    tickets_open: plain(open),
    tickets_in_progress: plain(inProgress),
    mails_failed: plain(failed),
    mails_retrying: plain(retrying),
    income_runs: { count: income.count, oldest_date: income.oldest },
    salary_runs: { count: salary.count, oldest_month: salary.oldest },
    as_of: now.toISOString(),
  };
}
