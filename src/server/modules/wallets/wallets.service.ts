import { formatCents } from '../../../shared/money.ts';
import type {
  AdjustmentInput,
  LedgerTransfer,
  MemberBalance,
  WalletBalance,
} from '../../../shared/wallets.ts';
import { WALLET_MESSAGES } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import type { LedgerTransferTable } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyBalanceAdjusted } from '../notifications/notifications.service.ts';
import { findUserById } from '../users/users.repository.ts';
import { balancesOf, hasMoneyAdded } from './ledger.repository.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from './ledger.service.ts';

export function toLedgerTransfer(row: LedgerTransferTable): LedgerTransfer {
  return {
    id: row.id,
    kind: row.kind,
    amount: formatCents(Number(row.amount_cents)),
    debit_account: row.debit_account_id,
    credit_account: row.credit_account_id,
    description: row.description,
    created_at: row.created_at,
  };
}

/** A member's available balances (posted minus held): what they can spend now. */
export async function walletBalance(db: Db, userId: string): Promise<WalletBalance> {
  const rows = await balancesOf(db, [
    walletAccountId(userId, 'business'),
    walletAccountId(userId, 'working'),
  ]);
  const available = (id: string) => {
    const row = rows.find((r) => r.id === id);
    return row ? Number(row.balance_cents) - Number(row.held_cents) : 0;
  };
  return {
    business: formatCents(available(walletAccountId(userId, 'business'))),
    working: formatCents(available(walletAccountId(userId, 'working'))),
  };
}

/** GET /wallet/balance: what the member can spend now, and whether money was ever added. */
export async function memberBalance(db: Db, userId: string): Promise<MemberBalance> {
  const [balance, moneyAdded] = await Promise.all([walletBalance(db, userId), hasMoneyAdded(db, userId)]);
  return { ...balance, money_added: moneyAdded };
}

/** Support staff correct a member's wallet: a balanced transfer against the platform's adjustments account, audited. */
export async function adjustBalance(
  db: Db,
  admin: SessionUser,
  input: AdjustmentInput,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (admin.user.role !== 'admin') throw forbidden();
  return runOnce(db, admin.user.id, idempotencyKey, { route: 'adjustment', input }, async (trx) => {
    const member = await findUserById(trx, input.user_id);
    if (member?.role !== 'user') throw notFound('No member with this id');
    await ensureWallets(trx, member.id);
    const wallet = walletAccountId(member.id, input.wallet);
    const before = await walletBalance(trx, member.id);
    const transfer = await postTransfer(trx, {
      debitAccountId: input.direction === 'credit' ? PLATFORM.adjustments : wallet,
      creditAccountId: input.direction === 'credit' ? wallet : PLATFORM.adjustments,
      amountCents: input.amount,
      kind: 'adjustment',
      reference: `adjustment:${input.direction}`,
      description: input.reason,
      createdBy: admin.user.id,
    });
    await notifyBalanceAdjusted(trx, {
      memberId: member.id,
      direction: input.direction,
      amountCents: input.amount,
      wallet: input.wallet,
      adminId: admin.user.id,
    });
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: `wallet.${input.direction}`,
      targetType: 'user',
      targetId: member.id,
      before,
      after: await walletBalance(trx, member.id),
      reason: input.reason,
    });
    return {
      statusCode: 201,
      body: { message: WALLET_MESSAGES.adjusted, transfer: toLedgerTransfer(transfer) },
    };
  });
}
