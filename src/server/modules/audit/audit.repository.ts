import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';

export type AuditEntry = {
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

/** Every admin change to a member, money or settings (RULES.md "Accounts"); written in the change's transaction. */
export async function insertAudit(trx: Db, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      id: newId(),
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
      after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
      reason: entry.reason ?? null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

// ---- Reading the log (admin screen) ----

export type AuditFilter = {
  /** Entries about this member: changes to their account, and decisions on transfers touching their wallets. */
  memberId?: string | undefined;
  actorId?: string | undefined;
};

function auditWhere(filter: AuditFilter) {
  const parts = [sql`1 = 1`];
  if (filter.actorId) parts.push(sql`audit_log.actor_id = ${filter.actorId}`);
  if (filter.memberId) {
    parts.push(sql`((audit_log.target_type = 'user' and audit_log.target_id = ${filter.memberId})
      or (audit_log.target_type = 'transfer' and audit_log.target_id in (
        select lt.id from ledger_transfers lt
        where lt.debit_account_id in (select la.id from ledger_accounts la where la.user_id = ${filter.memberId})
           or lt.credit_account_id in (select la.id from ledger_accounts la where la.user_id = ${filter.memberId}))))`);
  }
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

/** A page of the log, newest first, with the acting admin and, for changes to a member, that member. */
export async function listAuditEntries(db: Db, filter: AuditFilter, page: { offset: number; limit: number }) {
  return db
    .selectFrom('audit_log')
    .innerJoin('users as actor', 'actor.id', 'audit_log.actor_id')
    .leftJoin('users as member', (join) =>
      join.onRef('member.id', '=', 'audit_log.target_id').on('audit_log.target_type', '=', 'user'),
    )
    .selectAll('audit_log')
    .select([
      'actor.fullname as actor_fullname',
      'actor.email as actor_email',
      'member.id as member_id',
      'member.fullname as member_fullname',
      'member.email as member_email',
    ])
    .where(auditWhere(filter))
    .orderBy('audit_log.created_at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAuditEntries(db: Db, filter: AuditFilter): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where(auditWhere(filter))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
