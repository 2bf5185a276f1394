import { randomBytes } from 'node:crypto';
import { formatCents } from '../../../shared/money.ts';
import {
  type ActivationCode,
  CODE_MESSAGES,
  type CodeBatchInput,
  TOPUP_MESSAGES,
  type TopupListQuery,
} from '../../../shared/topups.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { ActivationCodeTable } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { findPlan } from '../plans/plans.repository.ts';
import {
  type CodeRow,
  claimCode,
  findCodeByText,
  findCodeRow,
  insertCodes,
  linkTopup,
  listCodes,
} from './codes.repository.ts';
import { findParty } from './topups.repository.ts';
import { checkPlan, invest } from './topups.service.ts';

// RULES.md "Activation codes": an admin creates codes, each worth one investment in a plan and amount,
// paid by the platform; a member redeems a code once. The investment is a top-up like any other
// (activation, activation income), paid from the platform's `platform:codes` account.

export const PLATFORM_CODES_ACCOUNT = 'platform:codes';

/** No 0/O or 1/I: a code is read and typed by people. 12 characters: 60 random bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function newCode(): string {
  return [...randomBytes(12)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

function toCode(row: CodeRow): ActivationCode {
  return {
    id: row.id,
    code: row.code,
    batch_id: row.batch_id,
    plan_id: row.plan_id,
    plan_name: row.plan_name,
    amount: formatCents(Number(row.amount_cents)),
    funding: row.funding,
    status: row.used_by ? 'used' : 'unused',
    created_at: row.created_at,
    used_by: row.used_by,
    used_by_name: row.used_by_name,
    used_by_email: row.used_by_email,
    used_at: row.used_at,
    topup_id: row.topup_id,
  };
}

/** POST /codes (admin, audited): a batch of codes for an active plan, the amount within its range. */
export async function createCodes(db: Db, asker: SessionUser, input: CodeBatchInput) {
  if (asker.user.role !== 'admin') throw forbidden();
  const batchId = newId();
  const rows = await db.transaction().execute(async (trx) => {
    const plan = checkPlan(await findPlan(trx, input.plan_id), input.amount);
    const now = new Date().toISOString();
    const codes: ActivationCodeTable[] = Array.from({ length: input.count }, () => ({
      id: newId(),
      code: newCode(),
      batch_id: batchId,
      plan_id: plan.id,
      amount_cents: input.amount,
      funding: input.funding,
      created_by: asker.user.id,
      created_at: now,
      used_by: null,
      used_at: null,
      topup_id: null,
    }));
    await insertCodes(trx, codes);
    await insertAudit(trx, {
      actorId: asker.user.id,
      action: 'codes.create',
      targetType: 'code_batch',
      targetId: batchId,
      after: {
        plan_id: plan.id,
        amount: formatCents(input.amount),
        count: input.count,
        funding: input.funding,
      },
    });
    return codes.map((c) => ({ ...c, plan_name: plan.name, used_by_name: null, used_by_email: null }));
  });
  return { message: CODE_MESSAGES.created, codes: rows.map(toCode) };
}

export async function codeList(db: Db, asker: SessionUser, query: TopupListQuery) {
  if (asker.user.role !== 'admin') throw forbidden();
  const { rows, total } = await listCodes(db, { offset: (query.page - 1) * query.limit, limit: query.limit });
  return { codes: rows.map(toCode), total, page: query.page, limit: query.limit };
}

export async function codeById(db: Db, asker: SessionUser, id: string): Promise<ActivationCode> {
  if (asker.user.role !== 'admin') throw forbidden();
  const row = await findCodeRow(db, id);
  if (!row) throw notFound(CODE_MESSAGES.codeNotFound);
  return toCode(row);
}

/** POST /codes/redeem (member): the code becomes an investment for the signed-in member, once. */
export async function redeemCode(
  db: Db,
  asker: SessionUser,
  code: string,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (asker.user.role !== 'user') throw forbidden();
  const memberId = asker.user.id;
  return runOnce(db, memberId, idempotencyKey, { route: 'code-redeem', code }, async (trx) => {
    const found = await findCodeByText(trx, code);
    if (!found) throw notFound(CODE_MESSAGES.notFound);
    const member = await findParty(trx, memberId);
    if (!member || member.status === 'block') throw forbidden(TOPUP_MESSAGES.payerBlocked);
    if (!(await claimCode(trx, found.id, memberId, new Date().toISOString())))
      throw new AppError(422, CODE_MESSAGES.used);
    // The code was issued for this plan and amount: it is honoured even if the plan closed since.
    const plan = await findPlan(trx, found.plan_id);
    if (!plan) throw notFound(TOPUP_MESSAGES.planNotFound);
    const topup = await invest(trx, {
      payerAccount: PLATFORM_CODES_ACCOUNT,
      payer: undefined,
      beneficiary: member,
      plan,
      type: 'code',
      amountCents: Number(found.amount_cents),
    });
    await linkTopup(trx, found.id, topup.id);
    return { statusCode: 201, body: { message: CODE_MESSAGES.redeemed, topup } };
  });
}
