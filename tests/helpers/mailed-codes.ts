import type { Db } from '../../src/server/db/database.ts';

// Time passing, for the e-mailed codes and reset links of one member: their lifetime is a setting of
// minutes (5 at least), too long for a test to wait out, so a test that needs one expired moves its
// expiry into the past, as the clock would.

const PAST = '2000-01-01T00:00:00.000Z';

export async function expireMailedCodes(db: Db, email: string): Promise<void> {
  const owner = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
  await db.updateTable('email_codes').set({ expires_at: PAST }).where('user_id', 'in', owner).execute();
  await db.updateTable('password_resets').set({ expires_at: PAST }).where('user_id', 'in', owner).execute();
}

/** The 6-digit code in a mail's text. */
export function codeIn(text: string): string {
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in ${text}`);
  return code;
}

/** The code in the newest mail queued for `email` (the outbox, where no mail server is configured). */
export async function latestMailedCode(db: Db, email: string): Promise<string | undefined> {
  const mail = await db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', email.toLowerCase())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return mail ? codeIn(mail.text_body) : undefined;
}
