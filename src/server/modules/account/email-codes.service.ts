import { randomInt } from 'node:crypto';
import { ACCOUNT } from '../../../shared/account.ts';
import { PROFILE } from '../../../shared/profile.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { addressKey } from '../../http/client-address.ts';
import { badRequest } from '../../http/errors.ts';
import { consume, type Limit } from '../../http/rate-limit.ts';
import { hashToken } from '../../http/tokens.ts';
import { enqueueMail } from '../mail/mail.service.ts';
import { nudgeMail } from '../mail/mail.worker.ts';
import { readRules } from '../settings/settings.service.ts';
import {
  countCodeTry,
  findEmailCode,
  markCodeUsed,
  refundCodeTry,
  replaceEmailCode,
} from './account.repository.ts';

// E-mailed 6-digit codes for any purpose (issue 14): e-mail verification, a payout address change,
// later a withdrawal. A code is random (crypto), kept only as a hash (salted with the member's id and
// the purpose), valid for the e-mailed code lifetime in force when it is sent (a setting), allows at most 5 wrong tries, works once, and a new code for the same
// purpose replaces the old one. Sending limits are the caller's (they differ by purpose).

export type CodePurpose = 'verify' | 'address' | 'withdrawal';
export const MAX_CODE_TRIES = 5;

/** Code mails asked for from one client address, whatever the purpose and whichever members ask. */
export const CODE_MAILS_PER_ADDRESS: Limit = { max: 20, windowMs: 60 * 60_000 };

/** Counts one code mail against the client address's hourly budget (429 with Retry-After past it). */
export const limitCodeMailsFrom = (db: Db, clientIp: string) =>
  consume(db, `code-mail:ip:${addressKey(clientIp)}`, CODE_MAILS_PER_ADDRESS);

const codeHash = (userId: string, purpose: CodePurpose, code: string) =>
  // 'verify' keeps the hash it had before codes had other purposes.
  hashToken(purpose === 'verify' ? `${userId}:${code}` : `${userId}:${purpose}:${code}`);
const codeError = (message: string) => badRequest([{ field: 'otp', message }]);

export type CodeMail = { subject: string; intro: string; warning?: string };

/** Replaces the member's code for this purpose with a new one and queues the mail, in one transaction. */
export async function sendEmailCode(
  db: Db,
  user: UserTable,
  purpose: CodePurpose,
  mail: CodeMail,
): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    const ttlMs = (await readRules(trx)).otpLifetimeMs;
    const paragraphs = [
      `Hello ${user.fullname},`,
      mail.intro,
      code,
      `It works once and for ${Math.round(ttlMs / 60_000)} minutes. ${
        mail.warning ?? 'If you did not ask for it, you can ignore this e-mail.'
      }`,
    ];
    await replaceEmailCode(trx, {
      user_id: user.id,
      purpose,
      code_hash: codeHash(user.id, purpose, code),
      wrong_tries: 0,
      expires_at: new Date(now.getTime() + ttlMs).toISOString(),
      created_at: now.toISOString(),
      used_at: null,
    });
    await enqueueMail(trx, { to: user.email, subject: mail.subject, paragraphs }, now);
  });
  nudgeMail(db);
}

/**
 * Checks a code without using it up: a clear 400 on `otp` when there is none, it was used, it expired,
 * it had 5 wrong tries, or it is wrong. The try is counted before the comparison, atomically, so
 * parallel guesses share the same 5 tries; a right code gives its try back.
 */
export async function checkEmailCode(
  db: Db,
  userId: string,
  purpose: CodePurpose,
  otp: string,
): Promise<void> {
  const code = await findEmailCode(db, userId, purpose);
  if (!code) throw codeError(ACCOUNT.codeMissing);
  if (code.used_at) throw codeError(PROFILE.codeUsed);
  if (code.expires_at <= new Date().toISOString()) throw codeError(ACCOUNT.codeExpired);
  if (!(await countCodeTry(db, code, MAX_CODE_TRIES))) throw codeError(ACCOUNT.codeTooManyTries);
  if (codeHash(userId, purpose, otp) !== code.code_hash) throw codeError(ACCOUNT.codeWrong);
  await refundCodeTry(db, code);
}

/**
 * Uses the code up inside the caller's transaction (the one that makes the change it guards), after
 * checkEmailCode passed: of two calls racing with one code, exactly one gets through; the other, and
 * any later use, is a 400. If the caller's transaction rolls back, the code stays usable.
 */
export async function consumeEmailCode(
  trx: Db,
  userId: string,
  purpose: CodePurpose,
  otp: string,
): Promise<void> {
  const key = { user_id: userId, purpose, code_hash: codeHash(userId, purpose, otp) };
  if (await markCodeUsed(trx, key, MAX_CODE_TRIES, new Date().toISOString())) return;
  const code = await findEmailCode(trx, userId, purpose);
  if (!code) throw codeError(ACCOUNT.codeMissing);
  if (code.used_at) throw codeError(PROFILE.codeUsed);
  if (code.expires_at <= new Date().toISOString()) throw codeError(ACCOUNT.codeExpired);
  if (code.wrong_tries >= MAX_CODE_TRIES) throw codeError(ACCOUNT.codeTooManyTries);
  throw codeError(ACCOUNT.codeWrong);
}

/** Check, then use up in the caller's transaction: what a guarded call does with its code. */
export async function redeemEmailCode<T>(
  db: Db,
  userId: string,
  purpose: CodePurpose,
  otp: string,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  await checkEmailCode(db, userId, purpose, otp);
  return db.transaction().execute(async (trx) => {
    await consumeEmailCode(trx, userId, purpose, otp);
    return work(trx);
  });
}
