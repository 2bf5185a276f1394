import { ACCOUNT, MAIL_TEXT } from '../../../shared/account.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { consume, type Limit } from '../../http/rate-limit.ts';
import { setVerifiedAt } from './account.repository.ts';
import { limitCodeMailsFrom, redeemEmailCode, sendEmailCode } from './email-codes.service.ts';

// E-mail verification by a 6-digit code (issue 14): the e-mailed codes of email-codes.service.ts with
// purpose 'verify'; at most 5 sends an hour per member, and code mails per client address are shared
// with the other purposes.

export const CODE_SEND_LIMIT: Limit = { max: 5, windowMs: 60 * 60_000 };

export async function sendVerificationCode(db: Db, user: UserTable, clientIp: string): Promise<void> {
  if (user.verify_at) throw new AppError(422, ACCOUNT.alreadyVerified);
  await consume(db, `verify:send:${user.id}`, CODE_SEND_LIMIT);
  await limitCodeMailsFrom(db, clientIp);
  await sendEmailCode(db, user, 'verify', {
    subject: MAIL_TEXT.verifySubject,
    intro: 'Your code to verify your e-mail address:',
  });
}

export async function verifyEmail(db: Db, user: UserTable, otp: string): Promise<void> {
  if (user.verify_at) throw new AppError(422, ACCOUNT.alreadyVerified);
  await redeemEmailCode(db, user.id, 'verify', otp, (trx) =>
    setVerifiedAt(trx, user.id, new Date().toISOString()),
  );
}
