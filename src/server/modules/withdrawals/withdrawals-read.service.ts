import { formatCents } from '../../../shared/money.ts';
import {
  WITHDRAWAL_MESSAGES as M,
  type WithdrawalDetail,
  type WithdrawalOptions,
} from '../../../shared/withdrawals.ts';
import type { Db } from '../../db/database.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { listPlans } from '../plans/plans.repository.ts';
import { readRules } from '../settings/settings.service.ts';
import { findUserById } from '../users/users.repository.ts';
import { PLATFORM } from '../wallets/ledger.service.ts';
import { walletBalance } from '../wallets/wallets.service.ts';
import { investmentFacts, savedAddresses } from './withdrawal-rules.ts';
import {
  addressUsableFrom,
  approvedTotal,
  creditTotal,
  findWithdrawal,
  investmentsOf,
  openWithdrawalOf,
  recentCredits,
} from './withdrawals.repository.ts';
import { toWithdrawal } from './withdrawals.service.ts';

// What the withdrawal screens read: the member's options before a request, and one request with, for
// an admin, the member's recent money in beside it.

const RECENT = 10;

/** GET /withdrawalrequest/by/{id}: a member's own (another's is a 404); an admin's, with context. */
export async function withdrawalDetail(db: Db, asker: SessionUser, id: string): Promise<WithdrawalDetail> {
  const row = await findWithdrawal(db, id);
  const admin = asker.user.role === 'admin';
  if (!row || (!admin && row.user_id !== asker.user.id)) throw notFound(M.notFound);
  const withdrawal = toWithdrawal(row);
  if (!admin) return { withdrawal };
  const [deposits, income, depositsTotal, incomeTotal, withdrawn] = await Promise.all([
    recentCredits(db, row.user_id, PLATFORM.deposits, RECENT),
    recentCredits(db, row.user_id, PLATFORM.income, RECENT),
    creditTotal(db, row.user_id, PLATFORM.deposits),
    creditTotal(db, row.user_id, PLATFORM.income),
    approvedTotal(db, row.user_id),
  ]);
  const money = (r: { amount_cents: number | string; kind: string; created_at: string }) => ({
    amount: formatCents(Number(r.amount_cents)),
    kind: r.kind,
    created_at: r.created_at,
  });
  return {
    withdrawal,
    member: {
      deposits: deposits.map(money),
      income: income.map(money),
      deposits_total: formatCents(depositsTotal),
      income_total: formatCents(incomeTotal),
      withdrawn_total: formatCents(withdrawn),
    },
  };
}

/** GET /withdrawalrequest/options: what the member's withdrawal screen shows before they type. */
export async function withdrawalOptions(
  db: Db,
  asker: SessionUser,
  now = new Date(),
): Promise<WithdrawalOptions> {
  if (asker.user.role !== 'user') throw forbidden();
  const userId = asker.user.id;
  const [user, balance, open, changes, investments, plans, rules] = await Promise.all([
    findUserById(db, userId),
    walletBalance(db, userId),
    openWithdrawalOf(db, userId),
    addressUsableFrom(db, userId),
    investmentsOf(db, userId),
    listPlans(db, 'plan', true),
    readRules(db),
  ]);
  if (!user) throw forbidden();
  const addresses = savedAddresses(user, changes);
  return {
    working_available: balance.working,
    minimum: formatCents(rules.withdrawalMinimumCents),
    fee_percent: formatCents(rules.withdrawalFeeBp),
    email_verified: user.verify_at !== null,
    open_request: open ?? null,
    addresses,
    investments: investments.map((inv) => {
      // The same facts the request's rules read (src/shared/withdrawal-rules.ts).
      const facts = investmentFacts(inv, now);
      return {
        topup_id: inv.id,
        plan_name: inv.plan_name,
        amount: formatCents(facts.amountCents),
        roi_paid: formatCents(Number(inv.roi_paid_cents)),
        roi_withdrawable: formatCents(Math.max(facts.roiLeftCents, 0)),
        roi_end_date: inv.roi_end_date,
        matured: facts.matured,
        principal_withdrawable: facts.matured && !facts.principalTaken && !facts.promotional,
        promotional: facts.promotional,
      };
    }),
    plans: plans.map((p) => ({
      id: p.id,
      name: p.name,
      min_amount: formatCents(Number(p.min_amount_cents)),
      max_amount: formatCents(Number(p.max_amount_cents)),
    })),
  };
}
