import type { Db } from '../../db/database.ts';
import type { TwoFactorChallengeTable, TwoFactorTable } from '../../db/schema.ts';

export async function findTwoFactor(db: Db, userId: string): Promise<TwoFactorTable | undefined> {
  return db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function isTwoFactorOn(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('two_factor')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  return Boolean(row);
}

/** A new pending secret; a live one (if any) is untouched until the new one is confirmed. */
export async function savePendingSecret(
  db: Db,
  userId: string,
  sealed: string,
  nowIso: string,
): Promise<void> {
  await db
    .insertInto('two_factor')
    .values({
      user_id: userId,
      pending_secret_enc: sealed,
      secret_enc: null,
      enabled_at: null,
      last_step: 0,
      updated_at: nowIso,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret_enc: sealed, updated_at: nowIso }))
    .execute();
}

/**
 * Makes the pending secret the live one, if it is still the one that was checked and nothing is live:
 * of two confirmations at the same time exactly one gets true.
 */
export async function enableSecret(
  db: Db,
  userId: string,
  pendingSealed: string,
  step: number,
  nowIso: string,
): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set({
      secret_enc: pendingSealed,
      pending_secret_enc: null,
      enabled_at: nowIso,
      last_step: step,
      updated_at: nowIso,
    })
    .where('user_id', '=', userId)
    .where('pending_secret_enc', '=', pendingSealed)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes the time step if no code of it or a later step was accepted before: each code works once. */
export async function takeStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTwoFactor(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(
  db: Db,
  userId: string,
  hashes: string[],
  nowIso: string,
): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ code_hash, user_id: userId, used_at: null, created_at: nowIso })))
    .execute();
}

/** Uses a recovery code up; of two uses at the same time exactly one gets true. */
export async function spendRecoveryCode(
  db: Db,
  userId: string,
  hash: string,
  nowIso: string,
): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: nowIso })
    .where('code_hash', '=', hash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('left'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

export async function insertChallenge(db: Db, row: TwoFactorChallengeTable): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', row.created_at).execute();
  await db.insertInto('two_factor_challenges').values(row).execute();
}

export async function findLiveChallenge(
  db: Db,
  tokenHash: string,
  nowIso: string,
): Promise<TwoFactorChallengeTable | undefined> {
  return db
    .selectFrom('two_factor_challenges')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
}

/**
 * Counts a try on the challenge before the code is compared, only while tries remain: parallel guesses
 * share the same tries. Answers the tries counted so far, or undefined when none remain.
 */
export async function countChallengeTry(
  db: Db,
  tokenHash: string,
  maxTries: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('two_factor_challenges')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('wrong_tries', '<', maxTries)
    .returning('wrong_tries')
    .executeTakeFirst();
  return row ? Number(row.wrong_tries) : undefined;
}

/** Ends a challenge; true for the one caller that ended it (a challenge makes one session at most). */
export async function deleteChallenge(db: Db, tokenHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('two_factor_challenges')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
