import { ACCOUNT, type ChangePasswordInput, MAIL_TEXT } from '../../../shared/account.ts';
import { AUTH } from '../../../shared/messages.ts';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { consume, type Limit } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { clearSignInSlowdown } from '../auth/auth.service.ts';
import { deviceName } from '../auth/device-name.ts';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords.ts';
import { enqueueMail } from '../mail/mail.service.ts';
import { nudgeMail } from '../mail/mail.worker.ts';
import { deleteOtherSessionsOfUser, deleteUnusedResetTokens, setPasswordHash } from './account.repository.ts';

// A signed-in member changes their password (docs/rules.md "Accounts"): the current password first,
// a few tries a quarter hour (a stolen session must not become a password-guessing machine); the new
// one by the registration rules. In one transaction: the new hash, every other session of the member
// ended, any unused reset link made useless, and a mail to the member's address saying so.

export const PASSWORD_CHANGE_LIMIT: Limit = { max: 5, windowMs: 15 * 60_000 };

const fieldError = (field: keyof ChangePasswordInput, message: string) => badRequest([{ field, message }]);

export type ChangeContext = { ip: string; userAgent: string | null; publicUrl: string };

export async function changePassword(
  db: Db,
  session: SessionUser,
  input: ChangePasswordInput,
  context: ChangeContext,
): Promise<void> {
  const { user } = session;
  await consume(db, `password-change:member:${user.id}`, PASSWORD_CHANGE_LIMIT);
  if (!(await verifyPassword(user.password_hash, input.current_password)))
    throw fieldError('current_password', ACCOUNT.currentPasswordWrong);
  if (input.password === input.current_password) throw fieldError('password', ACCOUNT.passwordUnchanged);
  if (isCommonPassword(input.password)) throw fieldError('password', AUTH.passwordCommon);

  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  const nowIso = now.toISOString();
  const when = `${nowIso.slice(0, 16).replace('T', ' ')} UTC`;
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, passwordHash, nowIso);
    await deleteOtherSessionsOfUser(trx, user.id, session.sessionId);
    await deleteUnusedResetTokens(trx, user.id);
    await enqueueMail(
      trx,
      {
        to: user.email,
        subject: MAIL_TEXT.changedSubject,
        paragraphs: [
          `Hello ${user.fullname},`,
          `The password of your account was changed on ${when}, from ${deviceName(context.userAgent)} at the address ${context.ip}. Every other device where your account was signed in is signed out.`,
          'If you did not change it, set a new password at once with "Forgot password?" on the sign-in page, then open a support ticket:',
          `${context.publicUrl}/forgot-password`,
        ],
        link: `${context.publicUrl}/forgot-password`,
      },
      now,
    );
  });
  nudgeMail(db);
  await clearSignInSlowdown(db, user.role, user.email);
}
