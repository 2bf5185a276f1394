import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SessionTable, UserTable } from '../../db/schema.ts';

export async function insertSession(db: Db, session: SessionTable): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** The unexpired session and its owner. Every signed-in call runs it: a sql template (see ledger.repository.ts). */
export async function findUnexpiredSession(
  db: Db,
  id: string,
  nowIso: string,
): Promise<{ sessionId: string; expiresAt: string; user: UserTable } | undefined> {
  const { rows } = await sql<UserTable & { session_id: string; session_expires_at: string }>`
    select users.*, sessions.id as session_id, sessions.expires_at as session_expires_at
    from sessions inner join users on users.id = sessions.user_id
    where sessions.id = ${id} and sessions.expires_at > ${nowIso}`.execute(db);
  const row = rows[0];
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

export async function listUnexpiredSessionsOfUser(
  db: Db,
  userId: string,
  nowIso: string,
): Promise<SessionTable[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Ends the given sessions of one member only: an id of somebody else's session deletes nothing. */
export async function deleteSessionsOfUserByIds(db: Db, userId: string, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
