import {
  DEPOSIT_IMAGES_PER_HOUR,
  DEPOSIT_MESSAGES,
  type DepositDecision,
  type DepositListQuery,
  type ManualDeposit,
  type ManualDepositRequest,
} from '../../../shared/deposits.ts';
import type { LedgerKind } from '../../../shared/ledger-kinds.ts';
import { formatCents } from '../../../shared/money.ts';
import { NOTIFICATION_LINKS } from '../../../shared/notifications.ts';
import { CHAIN_CREDIT_MESSAGES } from '../../../shared/web3.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { consume } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyMembers } from '../notifications/notifications.service.ts';
import { findUpload } from '../uploads/uploads.repository.ts';
import { UPLOADS_URL_PREFIX } from '../uploads/uploads.service.ts';
import { ensureWallets, PLATFORM, postTransfer, walletAccountId } from '../wallets/ledger.service.ts';
import {
  claimChainCredit,
  findChainCredit,
  setChainCreditTransfer,
} from '../web3/chain-credits.repository.ts';
import {
  type DepositRow,
  decide,
  findDeposit,
  insertDeposit,
  listDeposits,
  setLedgerTransfer,
} from './deposits.repository.ts';

// Manual deposits (RULES.md "Deposits", docs/rules.md "Manual deposits"). Identity comes from the
// session only; another member's deposit is a 404. Each decision is one transaction: the conditional
// status update (`where status = 'pending'`), the ledger credit, the member's notification, the audit
// entry and the Idempotency-Key record commit together or not at all.

const HOUR_MS = 60 * 60 * 1000;
export const DEPOSIT_KIND: LedgerKind = 'deposit';
/** Manual deposits are USDT on BNB Smart Chain (BEP20): their hashes share its (chain, hash) credits. */
export const MANUAL_DEPOSIT_CHAIN_ID = 56;

const creditedElsewhere = (source: keyof typeof CHAIN_CREDIT_MESSAGES) =>
  conflict(CHAIN_CREDIT_MESSAGES[source], [{ field: 'tx_hash', message: CHAIN_CREDIT_MESSAGES[source] }]);

export function toDeposit(row: DepositRow): ManualDeposit {
  return {
    id: row.id,
    user_id: row.user_id,
    amount: formatCents(Number(row.amount_cents)),
    tx_hash: row.tx_hash,
    image_url: row.image ? `${UPLOADS_URL_PREFIX}${row.image}` : null,
    status: row.status,
    reason: row.reason,
    created_at: row.created_at,
    decided_at: row.decided_at,
    fullname: row.fullname,
    username: row.username,
    email: row.email,
  };
}

const isAdmin = (asker: SessionUser) => asker.user.role === 'admin';

/** The deposit the asker may see: their own, or any for an admin; anything else is the same 404. */
async function visibleDeposit(db: Db, asker: SessionUser, id: string): Promise<DepositRow> {
  const row = await findDeposit(db, id);
  if (!row || (!isAdmin(asker) && row.user_id !== asker.user.id)) throw notFound(DEPOSIT_MESSAGES.notFound);
  return row;
}

/** An outcome, and the member to tell by Web Push once it has committed (first answer only). */
export type DepositOutcome = Outcome & { push?: { memberId: string; title: string; body: string } };

/** Rate-limits a member's screenshot uploads; answers whose the image will be. */
export async function depositImageOwner(db: Db, asker: SessionUser): Promise<string> {
  if (isAdmin(asker)) throw forbidden();
  await consume(db, `deposits:image:${asker.user.id}`, { max: DEPOSIT_IMAGES_PER_HOUR, windowMs: HOUR_MS });
  return asker.user.id;
}

export async function addDeposit(
  db: Db,
  asker: SessionUser,
  input: ManualDepositRequest,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (isAdmin(asker)) throw forbidden();
  const memberId = asker.user.id;
  // A hash already credited (by any path) is refused now rather than at the admin's approval; the
  // claim in the approving transaction is the judge.
  const credited = await findChainCredit(db, MANUAL_DEPOSIT_CHAIN_ID, input.tx_hash);
  if (credited) throw creditedElsewhere(credited.source);
  return runOnce(db, memberId, idempotencyKey, { route: 'manual-deposit', input }, async (trx) => {
    if (input.image !== undefined) {
      const upload = await findUpload(trx, input.image);
      if (upload?.purpose !== 'deposit' || upload.owner_id !== memberId)
        throw badRequest([{ field: 'image', message: DEPOSIT_MESSAGES.imageUnknown }]);
    }
    const id = newId();
    try {
      await insertDeposit(trx, {
        id,
        user_id: memberId,
        amount_cents: input.amount,
        tx_hash: input.tx_hash,
        image: input.image ?? null,
        status: 'pending',
        reason: null,
        ledger_transfer_id: null,
        decided_by: null,
        decided_at: null,
        created_at: new Date().toISOString(),
      });
    } catch (error) {
      // The unique index decides, also between two requests at once: one inserts, the other is refused.
      if (isUniqueViolation(error))
        throw conflict(DEPOSIT_MESSAGES.duplicateHash, [
          { field: 'tx_hash', message: DEPOSIT_MESSAGES.duplicateHash },
        ]);
      throw error;
    }
    const row = await findDeposit(trx, id);
    if (!row) throw new Error('the deposit just written is missing');
    return { statusCode: 201, body: { message: DEPOSIT_MESSAGES.added, deposit: toDeposit(row) } };
  });
}

export async function depositList(
  db: Db,
  asker: SessionUser,
  query: DepositListQuery,
): Promise<{ deposits: ManualDeposit[] }> {
  const rows = await listDeposits(db, {
    ...(isAdmin(asker) ? {} : { userId: asker.user.id }),
    ...(query.status ? { status: query.status } : {}),
  });
  return { deposits: rows.map(toDeposit) };
}

export async function depositById(
  db: Db,
  asker: SessionUser,
  id: string,
): Promise<{ deposit: ManualDeposit }> {
  return { deposit: toDeposit(await visibleDeposit(db, asker, id)) };
}

/** An admin approves (the Active Wallet gets the deposit's amount) or rejects (with a reason) a deposit, once. */
export async function decideDeposit(
  db: Db,
  admin: SessionUser,
  id: string,
  decision: DepositDecision,
  idempotencyKey: string | undefined,
): Promise<DepositOutcome> {
  if (!isAdmin(admin)) throw forbidden();
  return runOnce<DepositOutcome>(
    db,
    admin.user.id,
    idempotencyKey,
    { route: 'manual-deposit-decision', id, decision },
    async (trx) => {
      const row = await findDeposit(trx, id);
      if (!row) throw notFound(DEPOSIT_MESSAGES.notFound);
      if (row.status !== 'pending') throw conflict(DEPOSIT_MESSAGES.notPending);
      const amountCents = Number(row.amount_cents);
      if (decision.amount !== amountCents || decision.user_id !== row.user_id)
        throw conflict(DEPOSIT_MESSAGES.mismatch);
      const approve = decision.status === 'approved';
      const decidedAt = new Date().toISOString();
      // The row read above may be stale by now: only the update that still finds it pending goes on.
      const won = await decide(trx, id, {
        status: decision.status,
        decidedBy: admin.user.id,
        decidedAt,
        reason: approve ? (decision.reason ?? null) : (decision.reason as string),
      });
      if (!won) throw conflict(DEPOSIT_MESSAGES.notPending);
      const amount = formatCents(amountCents);
      if (approve) {
        // One (chain, hash) credits once, whatever the path: a hash an on-chain deposit (or a payment)
        // credited is refused, and this whole decision rolls back.
        const claim = await claimChainCredit(trx, {
          chainId: MANUAL_DEPOSIT_CHAIN_ID,
          txHash: row.tx_hash,
          source: 'manual',
          sourceId: id,
          at: decidedAt,
        });
        if (claim) throw creditedElsewhere(claim.source);
        await ensureWallets(trx, row.user_id);
        const transfer = await postTransfer(trx, {
          debitAccountId: PLATFORM.deposits,
          creditAccountId: walletAccountId(row.user_id, 'business'),
          amountCents,
          kind: DEPOSIT_KIND,
          reference: `manual-deposit:${id}`,
          description: `Manual deposit ${row.tx_hash}`,
          createdBy: admin.user.id,
          createdAt: decidedAt,
        });
        await setLedgerTransfer(trx, id, transfer.id);
        await setChainCreditTransfer(trx, MANUAL_DEPOSIT_CHAIN_ID, row.tx_hash, transfer.id);
      }
      const title = approve ? DEPOSIT_MESSAGES.approvedTitle : DEPOSIT_MESSAGES.rejectedTitle;
      const text = approve
        ? DEPOSIT_MESSAGES.approvedText(amount)
        : DEPOSIT_MESSAGES.rejectedText(amount, decision.reason ?? '');
      await notifyMembers(trx, {
        recipientIds: [row.user_id],
        title,
        message: text,
        createdBy: admin.user.id,
        link: NOTIFICATION_LINKS.depositCredited,
      });
      const after = await findDeposit(trx, id);
      if (!after) throw new Error('the deposit just decided is missing');
      await insertAudit(trx, {
        actorId: admin.user.id,
        action: approve ? 'deposit.approve' : 'deposit.reject',
        targetType: 'deposit',
        targetId: id,
        before: toDeposit(row),
        after: toDeposit(after),
        reason: decision.reason ?? null,
      });
      return {
        statusCode: 200,
        body: {
          message: approve ? DEPOSIT_MESSAGES.approved : DEPOSIT_MESSAGES.rejected,
          deposit: toDeposit(after),
        },
        push: { memberId: row.user_id, title, body: text },
      };
    },
  );
}

/**
 * DELETE /deposite/{id}: the member cancels their own pending deposit, or an admin cancels any pending
 * one (audited, the member is told). The row stays, marked cancelled; an approved deposit is never touched.
 */
export async function cancelDeposit(
  db: Db,
  asker: SessionUser,
  id: string,
): Promise<{ message: string; deposit: ManualDeposit }> {
  return db.transaction().execute(async (trx) => {
    const row = await visibleDeposit(trx, asker, id);
    if (row.status !== 'pending') throw conflict(DEPOSIT_MESSAGES.notPending);
    const won = await decide(trx, id, {
      status: 'cancelled',
      decidedBy: asker.user.id,
      decidedAt: new Date().toISOString(),
    });
    if (!won) throw new AppError(409, DEPOSIT_MESSAGES.notPending);
    const after = await findDeposit(trx, id);
    if (!after) throw new Error('the deposit just cancelled is missing');
    if (isAdmin(asker)) {
      await notifyMembers(trx, {
        recipientIds: [row.user_id],
        title: DEPOSIT_MESSAGES.cancelledByAdminTitle,
        message: DEPOSIT_MESSAGES.cancelledByAdminText(formatCents(Number(row.amount_cents))),
        createdBy: asker.user.id,
        link: NOTIFICATION_LINKS.depositCredited,
      });
      await insertAudit(trx, {
        actorId: asker.user.id,
        action: 'deposit.cancel',
        targetType: 'deposit',
        targetId: id,
        before: toDeposit(row),
        after: toDeposit(after),
      });
    }
    return { message: DEPOSIT_MESSAGES.cancelled, deposit: toDeposit(after) };
  });
}
