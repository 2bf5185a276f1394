import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditList, type AuditQuery } from '../../../shared/audit.ts';
import type { Db } from '../../db/database.ts';
import { forbidden } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { findUserByAnyKey, listAdmins } from '../users/members-admin.repository.ts';
import { countAuditEntries, listAuditEntries } from './audit.repository.ts';

const parse = (json: string | null): unknown => {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
};

/** The member an entry was about; an erased member is named from the snapshot the deletion kept. */
function memberOf(
  row: Awaited<ReturnType<typeof listAuditEntries>>[number],
  before: unknown,
): AuditEntry['member'] {
  if (row.member_id)
    return {
      id: row.member_id,
      fullname: row.member_fullname ?? '',
      email: row.member_email ?? '',
      erased: false,
    };
  if (row.target_type !== 'user') return null;
  const snapshot = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  return {
    id: row.target_id,
    fullname: typeof snapshot.fullname === 'string' ? snapshot.fullname : '',
    email: typeof snapshot.email === 'string' ? snapshot.email : '',
    erased: true,
  };
}

/**
 * GET /audit (admin): the log newest first. The member filter takes an id, e-mail or username; an id
 * no account has any more (an erased member) still finds that member's entries.
 */
export async function auditLog(db: Db, asker: SessionUser, query: AuditQuery): Promise<AuditList> {
  if (asker.user.role !== 'admin') throw forbidden();
  const memberId = query.member
    ? ((await findUserByAnyKey(db, query.member))?.id ?? query.member)
    : undefined;
  const filter = { memberId, actorId: query.admin };
  const limit = AUDIT_PAGE_SIZE;
  const [rows, total, admins] = await Promise.all([
    listAuditEntries(db, filter, { offset: (query.page - 1) * limit, limit }),
    countAuditEntries(db, filter),
    listAdmins(db),
  ]);
  return {
    entries: rows.map((row) => {
      const before = parse(row.before_json);
      return {
        id: row.id,
        created_at: row.created_at,
        action: row.action,
        admin: { id: row.actor_id, fullname: row.actor_fullname, email: row.actor_email },
        target_type: row.target_type,
        target_id: row.target_id,
        member: memberOf(row, before),
        before,
        after: parse(row.after_json),
        reason: row.reason,
      };
    }),
    total,
    page: query.page,
    limit,
    total_pages: Math.max(1, Math.ceil(total / limit)),
    admins,
  };
}
