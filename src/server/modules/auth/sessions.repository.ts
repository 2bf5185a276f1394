import type { Db } from '../../db/database.ts';
import type { SessionTable, UserTable } from '../../db/schema.ts';

export async function insertSession(db: Db, session: SessionTable): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** The unexpired session and its owner. */
export async function findUnexpiredSession(
  db: Db,
  id: string,
  nowIso: string,
): Promise<{ sessionId: string; expiresAt: string; user: UserTable } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.expires_at as session_expires_at'])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', nowIso)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, session_expires_at, ...user } = row;
  return { sessionId: session_id, expiresAt: session_expires_at, user };
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfUser(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Db, nowIso: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso).execute();
}
