import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';

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
      id: randomUUID(),
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
