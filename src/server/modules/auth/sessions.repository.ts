import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type SessionTable, USER_COLUMNS, type UserTable } from '../../db/schema.ts';

export async function insertSession(db: Db, session: SessionTable): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export type FoundSession = {
  sessionId: string;
  expiresAt: string;
  lastSeenAt: string;
  idleSeconds: number;
  user: UserTable;
};

/** The owner's columns, named (schema.ts USER_COLUMNS). */
const SESSION_USER_COLUMNS = sql.raw(USER_COLUMNS.map((column) => `users.${column}`).join(', '));

/** The unexpired session and its owner. Every signed-in call runs it: a sql template (see ledger.repository.ts). */
export async function findUnexpiredSession(
  db: Db,
  id: string,
  nowIso: string,
): Promise<FoundSession | undefined> {
  const { rows } = await sql<
    UserTable & {
      session_id: string;
      session_expires_at: string;
      session_last_seen_at: string;
      session_idle_seconds: number;
    }
  >`
    select ${SESSION_USER_COLUMNS}, sessions.id as session_id, sessions.expires_at as session_expires_at,
      sessions.last_seen_at as session_last_seen_at, sessions.idle_seconds as session_idle_seconds
    from sessions inner join users on users.id = sessions.user_id
    where sessions.id = ${id} and sessions.expires_at > ${nowIso}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { session_id, session_expires_at, session_last_seen_at, session_idle_seconds, ...user } = row;
  return {
    sessionId: session_id,
    expiresAt: session_expires_at,
    lastSeenAt: session_last_seen_at,
    idleSeconds: Number(session_idle_seconds),
    user,
  };
}

/** Whether a session unused since `lastSeenAt` has passed its idle timeout at `nowMs`. */
export const isIdleOver = (lastSeenAt: string, idleSeconds: number, nowMs: number) =>
  Date.parse(lastSeenAt) + idleSeconds * 1000 <= nowMs;

/**
 * Moves the last-seen time to now, unless another call already moved it past `seenBefore` (the guard
 * keeps parallel calls to one write).
 */
export async function touchSession(db: Db, id: string, seenBefore: string, nowIso: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: nowIso })
    .where('id', '=', id)
    .where('last_seen_at', '<=', seenBefore)
    .execute();
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

/** The member's live sessions: neither past their lifetime nor idle for longer than their idle timeout. */
export async function listUnexpiredSessionsOfUser(
  db: Db,
  userId: string,
  nowIso: string,
): Promise<SessionTable[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .orderBy('created_at', 'desc')
    .execute();
  const nowMs = Date.parse(nowIso);
  return rows.filter((row) => !isIdleOver(row.last_seen_at, Number(row.idle_seconds), nowMs));
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
