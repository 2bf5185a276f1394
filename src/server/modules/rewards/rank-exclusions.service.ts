import { type Exclusion, EXCLUSION_MESSAGES as M } from '../../../shared/rank-exclusions.ts';
import type { Db } from '../../db/database.ts';
import type { RankExclusionScope } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  deleteExclusion,
  findExclusion,
  insertExclusion,
  listExclusions,
} from './rank-exclusions.repository.ts';

// The spec's DELETE /leadership/{id} and PUT /cto/{id} (RULES.md "Rewards, salary, CTO, leadership"): an
// admin excludes a member from the leadership list or from the CTO of every month not yet paid, and
// restores them. Both ways are idempotent (a second press answers as the first and changes nothing), and
// each change is audited in its own transaction, with the member as the target.

const ANSWERS: Record<RankExclusionScope, { excluded: string; restored: string }> = {
  leadership: { excluded: M.leadershipRemoved, restored: M.leadershipRestored },
  cto: { excluded: M.ctoExcluded, restored: M.ctoRestored },
};
const ACTIONS: Record<RankExclusionScope, { excluded: string; restored: string }> = {
  leadership: { excluded: 'leadership.remove', restored: 'leadership.restore' },
  cto: { excluded: 'cto.exclude', restored: 'cto.restore' },
};

async function checkedMember(db: Db, admin: SessionUser, userId: string): Promise<void> {
  if (admin.user.role !== 'admin') throw forbidden();
  // Admins hold no rank and take no CTO share: only members can be excluded.
  if ((await findUserById(db, userId))?.role !== 'user') throw notFound(M.memberNotFound);
}

export async function exclusionsOf(db: Db, scope: RankExclusionScope): Promise<Exclusion[]> {
  return listExclusions(db, scope);
}

export async function excludeMember(
  db: Db,
  admin: SessionUser,
  scope: RankExclusionScope,
  userId: string,
  reason: string | undefined,
): Promise<{ message: string }> {
  await checkedMember(db, admin, userId);
  await db.transaction().execute(async (trx) => {
    const row = {
      user_id: userId,
      scope,
      reason: reason ? reason : null,
      created_by: admin.user.id,
      created_at: new Date().toISOString(),
    };
    if (!(await insertExclusion(trx, row))) return;
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: ACTIONS[scope].excluded,
      targetType: 'user',
      targetId: userId,
      after: { scope, reason: row.reason },
      reason: row.reason,
    });
  });
  return { message: ANSWERS[scope].excluded };
}

export async function restoreMember(
  db: Db,
  admin: SessionUser,
  scope: RankExclusionScope,
  userId: string,
): Promise<{ message: string }> {
  await checkedMember(db, admin, userId);
  await db.transaction().execute(async (trx) => {
    const before = await findExclusion(trx, userId, scope);
    if (!before || !(await deleteExclusion(trx, userId, scope))) return;
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: ACTIONS[scope].restored,
      targetType: 'user',
      targetId: userId,
      before: { scope, reason: before.reason, created_by: before.created_by, created_at: before.created_at },
    });
  });
  return { message: ANSWERS[scope].restored };
}
