import type { Db } from '../../db/database.ts';
import type { EmailCodeTable, PasswordResetTable } from '../../db/schema.ts';

export async function replaceResetToken(db: Db, row: PasswordResetTable): Promise<void> {
  // One live link per member: asking again makes the earlier link useless.
  await db
    .deleteFrom('password_resets')
    .where('user_id', '=', row.user_id)
    .where('used_at', 'is', null)
    .execute();
  await db.insertInto('password_resets').values(row).execute();
}

export async function findResetToken(db: Db, tokenHash: string): Promise<PasswordResetTable | undefined> {
  return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the link used if it still works; exactly one of two racing resets gets true. */
export async function useResetToken(db: Db, tokenHash: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: nowIso })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setPasswordHash(db: Db, userId: string, hash: string, nowIso: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: nowIso })
    .where('id', '=', userId)
    .execute();
}

/** Ends every session of the member but the one given (the one that asked). */
export async function deleteOtherSessionsOfUser(db: Db, userId: string, keepId: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', keepId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A reset link asked for before the password changed no longer works. */
export async function deleteUnusedResetTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

export async function setVerifiedAt(db: Db, userId: string, nowIso: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ verify_at: nowIso, updated_at: nowIso })
    .where('id', '=', userId)
    .execute();
}

export async function replaceEmailCode(db: Db, row: EmailCodeTable): Promise<void> {
  await db
    .deleteFrom('email_codes')
    .where('user_id', '=', row.user_id)
    .where('purpose', '=', row.purpose)
    .execute();
  await db.insertInto('email_codes').values(row).execute();
}

export async function findEmailCode(
  db: Db,
  userId: string,
  purpose: string,
): Promise<EmailCodeTable | undefined> {
  return db
    .selectFrom('email_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/**
 * Counts a try on this very code before it is compared, only while tries remain: parallel guesses
 * cannot get more than the allowed number of comparisons.
 */
export async function countCodeTry(db: Db, code: EmailCodeTable, maxTries: number): Promise<boolean> {
  const result = await db
    .updateTable('email_codes')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
    .where('user_id', '=', code.user_id)
    .where('purpose', '=', code.purpose)
    .where('code_hash', '=', code.code_hash)
    .where('wrong_tries', '<', maxTries)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives back the try a right code was counted for: only wrong codes use up the 5 tries. */
export async function refundCodeTry(db: Db, code: EmailCodeTable): Promise<void> {
  await db
    .updateTable('email_codes')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '-', 1) }))
    .where('user_id', '=', code.user_id)
    .where('purpose', '=', code.purpose)
    .where('code_hash', '=', code.code_hash)
    .where('wrong_tries', '>', 0)
    .execute();
}

/** Marks the code used if it is still live and is this one; exactly one of two racing callers gets true. */
export async function markCodeUsed(
  db: Db,
  key: { user_id: string; purpose: string; code_hash: string },
  maxTries: number,
  nowIso: string,
): Promise<boolean> {
  const result = await db
    .updateTable('email_codes')
    .set({ used_at: nowIso })
    .where('user_id', '=', key.user_id)
    .where('purpose', '=', key.purpose)
    .where('code_hash', '=', key.code_hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .where('wrong_tries', '<', maxTries)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
