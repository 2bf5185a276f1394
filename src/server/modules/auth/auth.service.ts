import type { RegisterInput, SignInInput } from '../../../shared/auth.ts';
import { AUTH } from '../../../shared/messages.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { UserTable } from '../../db/schema.ts';
import { addressKey } from '../../http/client-address.ts';
import { badRequest, conflict, forbidden, unauthorized } from '../../http/errors.ts';
import { consume, type Limit, reset, type Slowdown, slowDown } from '../../http/rate-limit.ts';
import { hashToken, newToken } from '../../http/tokens.ts';
import { readRules } from '../settings/settings.service.ts';
import {
  findRootAdmin,
  findUserByEmail,
  findUserByReferralCode,
  isUsernameTaken,
  setLastLogin,
} from '../users/users.repository.ts';
import { createUser } from '../users/users.service.ts';
import { ensureWallets } from '../wallets/ledger.service.ts';
import { hashPassword, isCommonPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOfUser,
  findUnexpiredSession,
  insertSession,
  isIdleOver,
  touchSession,
} from './sessions.repository.ts';

const MINUTE = 60_000;

// Every attempt is counted before the password is checked, in one atomic write per limit, so parallel
// guesses cannot all reach argon2 before the first is counted; a successful sign-in forgets them.
// Per (address, e-mail): a guesser at one address gets 5 tries per quarter hour. Per e-mail from every
// address (a guesser with many addresses): 10 tries at once, then a growing wait between tries, never a
// lockout: the real member's next try passes once the wait is over. Every attempt also counts per address.
export const LIMITS = {
  signInPerIp: { max: 100, windowMs: 15 * MINUTE },
  signInFailuresPerIpAndEmail: { max: 5, windowMs: 15 * MINUTE },
  registerPerIp: { max: 20, windowMs: 10 * MINUTE },
} satisfies Record<string, Limit>;

export const SIGN_IN_SLOWDOWN = {
  free: 10,
  delaysMs: [1, 2, 4, 8, 15, 30, 60, 120, 300].map((seconds) => seconds * 1000),
  forgetMs: 60 * MINUTE,
} satisfies Slowdown;

export type RequestContext = { ip: string; userAgent: string | undefined };

const signInAccountKey = (role: UserTable['role'], email: string) => `signin:account:${role}:${email}`;

/**
 * A member who proved they own the address (a password reset) gets out of the per-account slowdown at
 * once: otherwise someone who keeps guessing could keep the real member waiting after every wait.
 */
export const clearSignInSlowdown = (db: Db, role: UserTable['role'], email: string) =>
  reset(db, signInAccountKey(role, email));
export type NewSession = { user: UserTable; token: string; sessionId: string; expiresAt: string };

/**
 * The password step of signing in: limits, then the password, then whether the account may sign in.
 * The caller then starts a session (startSession), or first asks for the second factor (two-factor).
 */
export async function checkCredentials(
  db: Db,
  input: SignInInput,
  role: UserTable['role'],
  ctx: RequestContext,
): Promise<UserTable> {
  const client = addressKey(ctx.ip);
  await consume(db, `signin:ip:${client}`, LIMITS.signInPerIp);
  const failureKey = `signin:fail:${role}:${client}:${input.email}`;
  await consume(db, failureKey, LIMITS.signInFailuresPerIpAndEmail);
  const accountKey = signInAccountKey(role, input.email);
  await slowDown(db, accountKey, SIGN_IN_SLOWDOWN);

  const user = await findUserByEmail(db, input.email);
  // The same answer, after the same work, for an unknown e-mail, the wrong role and a wrong password.
  const passwordOk =
    user && user.role === role
      ? await verifyPassword(user.password_hash, input.password)
      : await verifyAgainstDummy(input.password).then(() => false);
  if (!user || !passwordOk) {
    throw unauthorized(AUTH.invalidCredentials);
  }
  if (user.status === 'block') throw forbidden(AUTH.blocked);
  await Promise.all([reset(db, failureKey), reset(db, accountKey)]);
  return user;
}

/** Creates the session of someone who has proved who they are (password, and the code where asked). */
export async function startSession(
  db: Db,
  user: UserTable,
  role: UserTable['role'],
  ctx: RequestContext,
  previousSessionId?: string,
): Promise<NewSession> {
  // A new session id on every sign-in: a session fixed before sign-in is never promoted.
  if (previousSessionId) await deleteSession(db, previousSessionId);
  const now = new Date();
  await deleteExpiredSessions(db, now.toISOString());
  const token = newToken();
  const sessionId = hashToken(token);
  // The sign-in lifetime in force now (a setting) stays this session's.
  const rules = await readRules(db);
  const expiresAt = new Date(
    now.getTime() + (role === 'admin' ? rules.adminSessionMs : rules.memberSessionMs),
  ).toISOString();
  await insertSession(db, {
    id: sessionId,
    user_id: user.id,
    role,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    ip: ctx.ip,
    user_agent: ctx.userAgent?.slice(0, 300) ?? null,
    last_seen_at: now.toISOString(),
    idle_seconds: (role === 'admin' ? rules.adminIdleMs : rules.memberIdleMs) / 1000,
  });
  await setLastLogin(db, user.id, now.toISOString());
  return { user: { ...user, last_login: now.toISOString() }, token, sessionId, expiresAt };
}

export const signOut = (db: Db, sessionId: string) => deleteSession(db, sessionId);

/**
 * The last-seen time is written at most this often: every signed-in call reads the session, and a write
 * on each (through SQLite's one writer, or a PostgreSQL row update) would make every read a write. A
 * session can so end up to this much before its idle timeout after its last call.
 */
export const LAST_SEEN_WRITE_MS = 60_000;

/**
 * Who a session cookie belongs to. A blocked member's sessions end here, all of them, for good; a
 * session unused for longer than its idle timeout ends here too. A call renews the last-seen time.
 */
export async function resolveSession(db: Db, sessionId: string, now = new Date()) {
  const nowIso = now.toISOString();
  const found = await findUnexpiredSession(db, sessionId, nowIso);
  if (!found) return undefined;
  if (found.user.status === 'block') {
    await deleteSessionsOfUser(db, found.user.id);
    return undefined;
  }
  const nowMs = now.getTime();
  if (isIdleOver(found.lastSeenAt, found.idleSeconds, nowMs)) {
    await deleteSession(db, sessionId);
    return undefined;
  }
  let lastSeenAt = found.lastSeenAt;
  if (nowMs - Date.parse(lastSeenAt) >= LAST_SEEN_WRITE_MS) {
    await touchSession(db, sessionId, lastSeenAt, nowIso);
    lastSeenAt = nowIso;
  }
  // When the session ends unless used again: its lifetime, or sooner its idle timeout.
  const idleEnd = new Date(Date.parse(lastSeenAt) + found.idleSeconds * 1000).toISOString();
  return {
    sessionId: found.sessionId,
    expiresAt: found.expiresAt,
    // biome-ignore lint/complexity/useMathMinMax: ISO times compared as strings; Math.min takes numbers.
    endsAt: idleEnd < found.expiresAt ? idleEnd : found.expiresAt,
    user: found.user,
  };
}

export async function register(db: Db, input: RegisterInput, ctx: RequestContext): Promise<UserTable> {
  await consume(db, `register:ip:${addressKey(ctx.ip)}`, LIMITS.registerPerIp);
  if (isCommonPassword(input.password))
    throw badRequest([{ field: 'password', message: AUTH.passwordCommon }]);

  const [usernameTaken, emailOwner] = await Promise.all([
    isUsernameTaken(db, input.username),
    findUserByEmail(db, input.email),
  ]);
  const clashes = [
    ...(usernameTaken ? [{ field: 'username', message: AUTH.usernameTaken }] : []),
    ...(emailOwner ? [{ field: 'email', message: AUTH.emailTaken }] : []),
  ];
  if (clashes[0]) throw conflict(clashes[0].message, clashes);

  const sponsor = input.reffer_by
    ? await findUserByReferralCode(db, input.reffer_by)
    : await findRootAdmin(db);
  if (input.reffer_by && !sponsor) throw badRequest([{ field: 'reffer_by', message: AUTH.referralUnknown }]);

  try {
    const member = await createUser(db, {
      username: input.username,
      email: input.email,
      password_hash: await hashPassword(input.password),
      role: 'user',
      fullname: input.fullname,
      phone: input.phone,
      reffer_by: sponsor?.refferal_code ?? null,
      sponsor_id: sponsor?.id ?? null,
    });
    await ensureWallets(db, member.id);
    return member;
  } catch (error) {
    // Two sign-ups racing for one name: the database's unique index decides, the loser gets a 409.
    if (isUniqueViolation(error)) {
      const field = String(error).includes('email') ? 'email' : 'username';
      const message = field === 'email' ? AUTH.emailTaken : AUTH.usernameTaken;
      throw conflict(message, [{ field, message }]);
    }
    throw error;
  }
}
