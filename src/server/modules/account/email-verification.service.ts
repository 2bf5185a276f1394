import { randomInt } from 'node:crypto';
import { ACCOUNT, MAIL_TEXT } from '../../../shared/account.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { consume, type Limit } from '../../http/rate-limit.ts';
import { hashToken } from '../../http/tokens.ts';
import { enqueueMail, simpleHtml } from '../mail/mail.service.ts';
import { nudgeMail } from '../mail/mail.worker.ts';
import {
  countCodeTry,
  deleteEmailCode,
  findEmailCode,
  replaceEmailCode,
  setVerifiedAt,
} from './account.repository.ts';

// E-mail verification by a 6-digit code (issue 14): random, kept only as a hash (salted with the
// member's id), valid codeTtlMs, at most 5 tries, a new code replaces the old one.

const PURPOSE = 'verify';
export const MAX_CODE_TRIES = 5;
export const CODE_SEND_LIMIT: Limit = { max: 5, windowMs: 60 * 60_000 };

const codeHash = (userId: string, code: string) => hashToken(`${userId}:${code}`);
const codeError = (message: string) => badRequest([{ field: 'otp', message }]);

export async function sendVerificationCode(db: Db, user: UserTable, codeTtlMs: number): Promise<void> {
  if (user.verify_at) throw new AppError(422, ACCOUNT.alreadyVerified);
  await consume(db, `verify:send:${user.id}`, CODE_SEND_LIMIT);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = new Date();
  const minutes = Math.round(codeTtlMs / 60_000);
  const paragraphs = [
    `Hello ${user.fullname},`,
    'Your code to verify your e-mail address:',
    code,
    `It works once and for ${minutes} minutes. If you did not ask for it, you can ignore this e-mail.`,
  ];
  await db.transaction().execute(async (trx) => {
    await replaceEmailCode(trx, {
      user_id: user.id,
      purpose: PURPOSE,
      code_hash: codeHash(user.id, code),
      wrong_tries: 0,
      expires_at: new Date(now.getTime() + codeTtlMs).toISOString(),
      created_at: now.toISOString(),
    });
    await enqueueMail(
      trx,
      {
        to: user.email,
        subject: MAIL_TEXT.verifySubject,
        text: paragraphs.join('\n\n'),
        html: simpleHtml(paragraphs),
      },
      now,
    );
  });
  nudgeMail(db);
}

export async function verifyEmail(db: Db, user: UserTable, otp: string): Promise<void> {
  if (user.verify_at) throw new AppError(422, ACCOUNT.alreadyVerified);
  const code = await findEmailCode(db, user.id, PURPOSE);
  if (!code) throw codeError(ACCOUNT.codeMissing);
  if (code.expires_at <= new Date().toISOString()) throw codeError(ACCOUNT.codeExpired);
  // The try is counted before the comparison, atomically: parallel guesses share the same 5 tries.
  if (!(await countCodeTry(db, code, MAX_CODE_TRIES))) throw codeError(ACCOUNT.codeTooManyTries);
  if (codeHash(user.id, otp) !== code.code_hash) throw codeError(ACCOUNT.codeWrong);
  await db.transaction().execute(async (trx) => {
    const nowIso = new Date().toISOString();
    await deleteEmailCode(trx, user.id, PURPOSE);
    await setVerifiedAt(trx, user.id, nowIso);
  });
}
