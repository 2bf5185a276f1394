import { MAIL_TEXT_OTP, type OtpSendInput, type OtpVerifyInput, PROFILE } from '../../../shared/profile.ts';
import type { Db } from '../../db/database.ts';
import { forbidden } from '../../http/errors.ts';
import { consume, type Limit } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { checkEmailCode, limitCodeMailsFrom, sendEmailCode } from '../account/email-codes.service.ts';

// POST /otp/send and /otp/verify (API.md "Mail and one-time codes"): codes for a payout address change
// or a withdrawal, mailed to the signed-in member. The body names the member and the address only so
// the client states what it means: anything but the session's own is a 403.

/** API.md: at most 5 an hour per member, whatever the purpose. */
export const OTP_SEND_LIMIT: Limit = { max: 5, windowMs: 60 * 60_000 };

const MAILS = {
  address: {
    subject: MAIL_TEXT_OTP.addressSubject,
    intro: MAIL_TEXT_OTP.addressIntro,
    warning: MAIL_TEXT_OTP.notYou,
  },
  withdrawal: {
    subject: MAIL_TEXT_OTP.withdrawalSubject,
    intro: MAIL_TEXT_OTP.withdrawalIntro,
    warning: MAIL_TEXT_OTP.notYou,
  },
} as const;

function assertOwn(asker: SessionUser, userId: string, email?: string): void {
  if (userId !== asker.user.id) throw forbidden(PROFILE.notYours);
  if (email !== undefined && email !== asker.user.email.toLowerCase()) throw forbidden(PROFILE.notYours);
}

export async function sendOtp(
  db: Db,
  asker: SessionUser,
  input: OtpSendInput,
  clientIp: string,
): Promise<void> {
  assertOwn(asker, input.userId, input.email);
  await consume(db, `otp:send:${asker.user.id}`, OTP_SEND_LIMIT);
  // Per client address too, so one machine cannot mail codes for many accounts.
  await limitCodeMailsFrom(db, clientIp);
  await sendEmailCode(db, asker.user, input.purpose, MAILS[input.purpose]);
}

/** Checks the code (a try counts) without using it up: the call it guards does that. */
export async function verifyOtp(db: Db, asker: SessionUser, input: OtpVerifyInput): Promise<void> {
  assertOwn(asker, input.userId);
  await checkEmailCode(db, asker.user.id, input.purpose, input.otp);
}
