import {
  ACCOUNT,
  type ForgotPasswordInput,
  MAIL_TEXT,
  type ResetPasswordInput,
} from '../../../shared/account.ts';
import { AUTH } from '../../../shared/messages.ts';
import type { Db } from '../../db/database.ts';
import { addressKey } from '../../http/client-address.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { consume, type Limit } from '../../http/rate-limit.ts';
import { hashToken, newToken } from '../../http/tokens.ts';
import { clearSignInSlowdown } from '../auth/auth.service.ts';
import { hashPassword, isCommonPassword } from '../auth/passwords.ts';
import { deleteSessionsOfUser } from '../auth/sessions.repository.ts';
import { enqueueMail } from '../mail/mail.service.ts';
import { nudgeMail } from '../mail/mail.worker.ts';
import { readRules } from '../settings/settings.service.ts';
import { findUserByEmail, findUserById } from '../users/users.repository.ts';
import { findResetToken, replaceResetToken, setPasswordHash, useResetToken } from './account.repository.ts';

// Forgotten passwords (RULES.md "Accounts"): every address gets the same answer, after the
// same limits, in the same time; a member's address also gets a link with a random token, of which only
// the hash is kept. The answer waits for the limits only (the same writes for every address): looking
// the address up and making a member's link (a token, its hash, the mail's outbox row) are done after
// answering (sendResetLink), so the time to answer cannot tell a member's address from another.

const MINUTE = 60_000;
export const RESET_LIMITS = {
  forgetPerIp: { max: 20, windowMs: 15 * MINUTE },
  /** Counted for every address, known or not, so a 429 tells nothing about membership. */
  forgetPerEmail: { max: 3, windowMs: 60 * MINUTE },
  forgetPerMember: { max: 5, windowMs: 60 * MINUTE },
  resetPerIp: { max: 30, windowMs: 15 * MINUTE },
} satisfies Record<string, Limit>;

export type ResetDeps = { db: Db; publicUrl: string };

/** Before the answer, the same for every address: the limits, counted for unknown addresses too. */
export async function countResetRequest(db: Db, input: ForgotPasswordInput, ip: string): Promise<void> {
  await consume(db, `forget:ip:${addressKey(ip)}`, RESET_LIMITS.forgetPerIp);
  await consume(db, `forget:email:${input.email}`, RESET_LIMITS.forgetPerEmail);
}

/** After the answer: a link for an unblocked member's address (nothing for any other address). */
export async function sendResetLink({ db, publicUrl }: ResetDeps, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  // Admins reset their password with the admin:create command; blocked members cannot sign in anyway.
  if (user?.role !== 'user' || user.status === 'block') return;
  // Past the member's own limit the mail is quietly not sent: a 429 here would tell who is a member.
  const underMemberLimit = await consume(db, `forget:member:${user.id}`, RESET_LIMITS.forgetPerMember).then(
    () => true,
    (error: unknown) => {
      if (error instanceof AppError && error.statusCode === 429) return false;
      throw error;
    },
  );
  if (!underMemberLimit) return;

  const token = newToken();
  const now = new Date();
  const link = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await db.transaction().execute(async (trx) => {
    // The e-mailed code and link lifetime in force now (a setting) stays this link's.
    const resetLinkTtlMs = (await readRules(trx)).otpLifetimeMs;
    const paragraphs = [
      `Hello ${user.fullname},`,
      'Someone (we hope you) asked to reset the password of your account. Open this link to set a new one:',
      link,
      `The link works once and for ${Math.round(resetLinkTtlMs / MINUTE)} minutes. If you did not ask for it, you can ignore this e-mail; your password stays as it is.`,
    ];
    await replaceResetToken(trx, {
      token_hash: hashToken(token),
      user_id: user.id,
      expires_at: new Date(now.getTime() + resetLinkTtlMs).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    });
    await enqueueMail(
      trx,
      {
        to: user.email,
        subject: MAIL_TEXT.resetSubject,
        paragraphs,
        link,
      },
      now,
    );
  });
  nudgeMail(db);
}

const tokenError = (message: string) => badRequest([{ field: 'token', message }]);

/** Sets the new password, uses the link up and ends every session of the member, in one transaction. */
export async function resetPassword(db: Db, input: ResetPasswordInput, ip: string): Promise<void> {
  await consume(db, `reset:ip:${addressKey(ip)}`, RESET_LIMITS.resetPerIp);
  const tokenHash = hashToken(input.token);
  const row = await findResetToken(db, tokenHash);
  const now = new Date();
  if (!row) throw tokenError(ACCOUNT.resetLinkInvalid);
  if (row.used_at) throw tokenError(ACCOUNT.resetLinkUsed);
  if (row.expires_at <= now.toISOString()) throw tokenError(ACCOUNT.resetLinkExpired);
  if (isCommonPassword(input.password))
    throw badRequest([{ field: 'password', message: AUTH.passwordCommon }]);

  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    const nowIso = new Date().toISOString();
    // A second reset racing this one, or the link running out meanwhile, finds nothing left to use.
    if (!(await useResetToken(trx, tokenHash, nowIso))) throw tokenError(ACCOUNT.resetLinkUsed);
    await setPasswordHash(trx, row.user_id, passwordHash, nowIso);
    await deleteSessionsOfUser(trx, row.user_id);
  });
  const member = await findUserById(db, row.user_id);
  if (member) await clearSignInSlowdown(db, member.role, member.email);
}
