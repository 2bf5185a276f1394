import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { AUTH } from '../../../shared/messages.ts';
import {
  CHALLENGE_MAX_TRIES,
  CHALLENGE_TTL_MS,
  isTotpCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW,
  TWO_FACTOR,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../../shared/two-factor.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { addressKey } from '../../http/client-address.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../http/errors.ts';
import { consume, type Limit, reset, slowDown } from '../../http/rate-limit.ts';
import { hashToken, newToken } from '../../http/tokens.ts';
import {
  LIMITS,
  type NewSession,
  type RequestContext,
  SIGN_IN_SLOWDOWN,
  startSession,
} from '../auth/auth.service.ts';
import { readSettings } from '../settings/settings.service.ts';
import { findUserById } from '../users/users.repository.ts';
import type { SecretBox } from './secret-box.ts';
import {
  countChallengeTry,
  countRecoveryCodesLeft,
  deleteChallenge,
  deleteTwoFactor,
  enableSecret,
  findLiveChallenge,
  findTwoFactor,
  insertChallenge,
  isTwoFactorOn,
  replaceRecoveryCodes,
  savePendingSecret,
  spendRecoveryCode,
  takeStep,
} from './two-factor.repository.ts';

// Two-factor sign-in (issue 14 item 4). A code is accepted for the current 30-second step or one
// either side, and only for a step later than the last one accepted (a guarded update), so a code
// seen over someone's shoulder, or sent twice at once, signs in once.

/** Confirming the set-up and turning it off: a signed-in guesser gets 10 tries a quarter hour. */
export const CODE_CHECK_LIMIT: Limit = { max: 10, windowMs: 15 * 60_000 };

export type TwoFactorDeps = { db: Db; box: SecretBox };

const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The time step the code belongs to (within the window around now), or undefined for a wrong code. */
function matchStep(secret: string, code: string, nowMs = Date.now()): number | undefined {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: nowMs }) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** 50 random bits, shown as `abcde-fghij`. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
const recoveryHash = (userId: string, code: string) => hashToken(`${userId}:${normalizeRecoveryCode(code)}`);

const wrongCode = () => badRequest([{ field: 'code', message: TWO_FACTOR.codeWrong }]);

export { isTwoFactorOn };

export async function twoFactorStatus(db: Db, user: UserTable): Promise<TwoFactorStatus> {
  const [enabled, settings] = await Promise.all([isTwoFactorOn(db, user.id), readSettings(db)]);
  return {
    enabled,
    required: user.role === 'admin' && settings.admin_two_factor_required,
    recovery_codes_left: enabled ? await countRecoveryCodesLeft(db, user.id) : 0,
  };
}

/** Step 1: a new secret, kept pending (sealed) until a code from it is confirmed. */
export async function startSetup({ db, box }: TwoFactorDeps, user: UserTable): Promise<TwoFactorSetup> {
  if (await isTwoFactorOn(db, user.id)) throw new AppError(422, TWO_FACTOR.alreadyOn);
  const secret = new Secret({ size: 20 }).base32;
  await savePendingSecret(db, user.id, box.seal(secret, user.id), new Date().toISOString());
  return { otpauth_uri: totpOf(secret, user.email).toString(), secret };
}

/** Step 2: a current code from the pending secret turns it on; the ten recovery codes are answered once. */
export async function confirmSetup(
  { db, box }: TwoFactorDeps,
  user: UserTable,
  code: string,
): Promise<string[]> {
  const row = await findTwoFactor(db, user.id);
  if (row?.enabled_at) throw new AppError(422, TWO_FACTOR.alreadyOn);
  if (!row?.pending_secret_enc) throw new AppError(422, TWO_FACTOR.noSetup);
  await consume(db, `2fa:check:${user.id}`, CODE_CHECK_LIMIT);
  const step = matchStep(box.open(row.pending_secret_enc, user.id), code);
  if (step === undefined) throw wrongCode();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const nowIso = new Date().toISOString();
  const pending = row.pending_secret_enc;
  await db.transaction().execute(async (trx) => {
    if (!(await enableSecret(trx, user.id, pending, step, nowIso)))
      throw new AppError(422, TWO_FACTOR.alreadyOn);
    await replaceRecoveryCodes(
      trx,
      user.id,
      codes.map((c) => recoveryHash(user.id, c)),
      nowIso,
    );
  });
  await reset(db, `2fa:check:${user.id}`);
  return codes;
}

/** A code from the app (each step once) or an unused recovery code (used up). */
async function spendSecondFactor({ db, box }: TwoFactorDeps, userId: string, code: string): Promise<boolean> {
  if (!isTotpCode(code))
    return spendRecoveryCode(db, userId, recoveryHash(userId, code), new Date().toISOString());
  const row = await findTwoFactor(db, userId);
  if (!row?.secret_enc || !row.enabled_at) return false;
  const step = matchStep(box.open(row.secret_enc, userId), code);
  return step !== undefined && (await takeStep(db, userId, step));
}

export async function turnOff(deps: TwoFactorDeps, user: UserTable, code: string): Promise<void> {
  const { db } = deps;
  if (!(await isTwoFactorOn(db, user.id))) throw new AppError(422, TWO_FACTOR.notOn);
  if (user.role === 'admin' && (await readSettings(db)).admin_two_factor_required)
    throw new AppError(422, TWO_FACTOR.adminCannotTurnOff);
  await consume(db, `2fa:check:${user.id}`, CODE_CHECK_LIMIT);
  if (!(await spendSecondFactor(deps, user.id, code))) throw wrongCode();
  await db.transaction().execute((trx) => deleteTwoFactor(trx, user.id));
  await reset(db, `2fa:check:${user.id}`);
}

// ---- Signing in: password, then code ----

/** The half-done sign-in after a right password; the answer is the cookie's token. */
export async function startChallenge(db: Db, user: UserTable, role: UserTable['role']): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await insertChallenge(db, {
    token_hash: hashToken(token),
    user_id: user.id,
    role,
    wrong_tries: 0,
    expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString(),
    created_at: new Date(now).toISOString(),
  });
  return token;
}

export type ChallengeOutcome = { session: NewSession; role: UserTable['role'] };

/**
 * POST /auth/otp-code: the challenge's second factor. Every try counts against the challenge (at most
 * five, then it ends) and against the account (the sign-in slowdown, forgotten on success).
 * `ended` is told when the challenge is over, so the caller clears its cookie.
 */
export async function completeChallenge(
  deps: TwoFactorDeps,
  token: string | undefined,
  code: string,
  ctx: RequestContext,
  previousSessionId: string | undefined,
  ended: () => void,
): Promise<ChallengeOutcome> {
  const { db } = deps;
  if (!token) throw unauthorized(TWO_FACTOR.challengeMissing);
  const tokenHash = hashToken(token);
  const challenge = await findLiveChallenge(db, tokenHash, new Date().toISOString());
  if (!challenge) {
    ended();
    throw unauthorized(TWO_FACTOR.challengeMissing);
  }
  await consume(db, `signin:ip:${addressKey(ctx.ip)}`, LIMITS.signInPerIp);
  const accountKey = `signin:otp:${challenge.user_id}`;
  await slowDown(db, accountKey, SIGN_IN_SLOWDOWN);
  const tries = await countChallengeTry(db, tokenHash, CHALLENGE_MAX_TRIES);
  if (tries === undefined) {
    await deleteChallenge(db, tokenHash);
    ended();
    throw unauthorized(TWO_FACTOR.challengeTooManyTries);
  }
  if (!(await spendSecondFactor(deps, challenge.user_id, code))) {
    if (tries >= CHALLENGE_MAX_TRIES) {
      await deleteChallenge(db, tokenHash);
      ended();
      throw unauthorized(TWO_FACTOR.challengeTooManyTries);
    }
    throw wrongCode();
  }
  // One session per challenge, even for two right codes sent at once.
  if (!(await deleteChallenge(db, tokenHash))) {
    ended();
    throw unauthorized(TWO_FACTOR.challengeMissing);
  }
  ended();
  await reset(db, accountKey);
  const user = await findUserById(db, challenge.user_id);
  if (!user || user.role !== challenge.role) throw unauthorized(TWO_FACTOR.challengeMissing);
  if (user.status === 'block') throw forbidden(AUTH.blocked);
  return {
    session: await startSession(db, user, challenge.role, ctx, previousSessionId),
    role: challenge.role,
  };
}

/**
 * While admins must use two-factor sign-in, an admin without it may only look at their session, sign
 * out and set it up: every other signed-in call is a 403.
 */
export async function adminLacksRequiredTwoFactor(db: Db, user: UserTable): Promise<boolean> {
  if (user.role !== 'admin') return false;
  const settings = await readSettings(db);
  return settings.admin_two_factor_required && !(await isTwoFactorOn(db, user.id));
}
