import type { Db } from '../../db/database.ts';
import type { MailOutboxTable } from '../../db/schema.ts';

export async function insertMail(db: Db, mail: MailOutboxTable): Promise<void> {
  await db.insertInto('mail_outbox').values(mail).execute();
}

/** Pending mails whose time has come, oldest first. */
export async function dueMails(db: Db, nowIso: string, limit: number): Promise<MailOutboxTable[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Takes a mail for one send attempt: moves its due time to the end of the lease and counts the try,
 * only if nobody else moved it since it was read. Exactly one worker gets true for one due time.
 */
export async function claimMail(db: Db, mail: MailOutboxTable, leaseUntilIso: string): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: leaseUntilIso, attempts: mail.attempts + 1 })
    .where('id', '=', mail.id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', mail.next_attempt_at)
    .where('attempts', '=', mail.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markSent(db: Db, id: string, nowIso: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'sent', sent_at: nowIso, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markRetry(db: Db, id: string, nextIso: string, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: nextIso, last_error: error })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function markFailed(db: Db, id: string, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'failed', last_error: error })
    .where('id', '=', id)
    .execute();
}

export async function listMails(
  db: Db,
  filter: { status?: MailOutboxTable['status']; to?: string },
  limit = 100,
): Promise<MailOutboxTable[]> {
  let query = db.selectFrom('mail_outbox').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.to) query = query.where('to_address', '=', filter.to);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findMail(db: Db, id: string): Promise<MailOutboxTable | undefined> {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Puts a failed mail back in the outbox, due now, with its tries counted afresh; the last error stays
 * until the next try replaces or clears it. Only a mail still failed is touched, so of two admins
 * pressing at once exactly one gets true.
 */
export async function requeueFailedMail(db: Db, id: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: nowIso })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
