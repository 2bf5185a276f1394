import { expect } from 'vitest';
import type { Db } from '../../src/server/db/database.ts';
import { ApiClient, newMember } from './client.ts';
import { codeIn } from './mailed-codes.ts';
import type { TestSmtp } from './smtp.ts';

// Members ready to withdraw, built over HTTP: registered, e-mail verified with the mailed code, a
// BEP20 payout address set by an admin (usable at once, RULES.md), Income Working funded by an audited
// adjustment. Start the server with TRUST_PROXY=127.0.0.1 and SMTP_URL: each member asks from an
// address of its own, so the per-address limits on sign-ups and code mails are not what a test meets.

export const PAYOUT_BEP20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const TX_HASH = `0x${'ab'.repeat(32)}`;

export type Payee = { client: ApiClient; id: string; email: string; from: Record<string, string> };

let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return { 'x-forwarded-for': `198.51.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}` };
};

export { codeIn };

async function mailedCode(
  smtp: TestSmtp,
  email: string,
  send: () => Promise<{ status: number; text: string }>,
) {
  const before = smtp.mails.length;
  const res = await send();
  expect(res.status, res.text).toBe(200);
  const mail = await smtp.waitFor(email, (m) => smtp.mails.indexOf(m) >= before);
  return codeIn(mail.text);
}

export async function payee(
  server: { baseUrl: string },
  admin: ApiClient,
  smtp: TestSmtp,
  {
    working,
    verified = true,
    address = true,
    sponsorCode,
  }: { working?: string; verified?: boolean; address?: boolean; sponsorCode?: string } = {},
): Promise<Payee> {
  const from = nextAddress();
  const body = newMember(sponsorCode ? { reffer_by: sponsorCode } : {});
  const client = new ApiClient(server.baseUrl);
  expect((await client.post('/auth/register', body, from)).status).toBe(201);
  const signedIn = await client.post('/auth/signin', { email: body.email, password: body.password }, from);
  expect(signedIn.status, signedIn.text).toBe(200);
  const id: string = signedIn.body.auth.id;
  if (verified) {
    const code = await mailedCode(smtp, body.email, () =>
      client.post('/auth/email-verification', undefined, from),
    );
    expect((await client.post('/auth/verify-user', { otp: code }, from)).status).toBe(200);
  }
  if (address) expect((await admin.put(`/users/${id}`, { bep20: PAYOUT_BEP20 })).status).toBe(200);
  if (working) await credit(admin, id, working);
  return { client, id, email: body.email, from };
}

export async function credit(admin: ApiClient, userId: string, amount: string, wallet = 'working') {
  const res = await admin.post('/admin/adjustments', {
    user_id: userId,
    wallet,
    direction: 'credit',
    amount,
    reason: 'Test funding',
  });
  expect(res.status, res.text).toBe(201);
}

/** A fresh withdrawal code from the member's mailbox (POST /otp/send, purpose withdrawal). */
export function withdrawalCode(smtp: TestSmtp, p: Payee, purpose: 'withdrawal' | 'address' = 'withdrawal') {
  return mailedCode(smtp, p.email, () =>
    p.client.post('/otp/send', { userId: p.id, email: p.email, purpose }, p.from),
  );
}

/** Posted and held cents of one of the member's ledger accounts. */
export async function accountCents(db: Db, accountId: string) {
  const row = await db
    .selectFrom('ledger_accounts')
    .select(['balance_cents', 'held_cents'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  const balance = Number(row?.balance_cents ?? 0);
  const held = Number(row?.held_cents ?? 0);
  return { balance, held, available: balance - held };
}

export async function pendingCount(db: Db, userId: string): Promise<number> {
  const rows = await db
    .selectFrom('withdrawals')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
  return rows.length;
}
