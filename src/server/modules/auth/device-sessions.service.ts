import { type DeviceSession, SESSIONS } from '../../../shared/sessions.ts';
import type { Db } from '../../db/database.ts';
import type { SessionTable } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { hashToken } from '../../http/tokens.ts';
import { deviceName } from './device-name.ts';
import { deleteSessionsOfUserByIds, listUnexpiredSessionsOfUser } from './sessions.repository.ts';

// Issue 14, item 5. Every call works on the caller's own sessions only: the member comes from the
// session, and a handle of anybody else's session is simply not found.

/** The name a session goes by outside the server: derived from its stored id, and useless as a cookie. */
export const sessionHandle = (sessionId: string) => hashToken(`session-handle:${sessionId}`).slice(0, 32);

const toDeviceSession = (row: SessionTable, currentId: string): DeviceSession => ({
  id: sessionHandle(row.id),
  device: deviceName(row.user_agent),
  ip: row.ip,
  created_at: row.created_at,
  expires_at: row.expires_at,
  current: row.id === currentId,
});

export async function listDeviceSessions(db: Db, me: SessionUser): Promise<DeviceSession[]> {
  const rows = await listUnexpiredSessionsOfUser(db, me.user.id, new Date().toISOString());
  const sessions = rows.map((row) => toDeviceSession(row, me.sessionId));
  // The device in hand first, then the others newest first.
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

export async function endDeviceSession(db: Db, me: SessionUser, handle: string): Promise<void> {
  if (handle === sessionHandle(me.sessionId)) throw new AppError(422, SESSIONS.current);
  const rows = await listUnexpiredSessionsOfUser(db, me.user.id, new Date().toISOString());
  const target = rows.find((row) => sessionHandle(row.id) === handle);
  if (!target || !(await deleteSessionsOfUserByIds(db, me.user.id, [target.id])))
    throw notFound(SESSIONS.notFound);
}

export async function endOtherDeviceSessions(db: Db, me: SessionUser): Promise<number> {
  const rows = await listUnexpiredSessionsOfUser(db, me.user.id, new Date().toISOString());
  const others = rows.filter((row) => row.id !== me.sessionId).map((row) => row.id);
  return deleteSessionsOfUserByIds(db, me.user.id, others);
}
