import { type APIRequestContext, expect, type PlaywrightWorkerArgs } from '@playwright/test';
import { E2E_MAILS_URL } from '../../playwright.config.ts';
import { MAIL_TEXT_OTP } from '../../src/shared/profile.ts';
import {
  createTestPlan,
  creditByApi,
  csrfHeaders,
  type Member,
  newMember,
  nextClientAddress,
  registerByApi,
  signInByApi,
} from './helpers.ts';

// Members ready to withdraw, and their requests made through the API with a mailed code read from the
// run's SMTP relay: shared by the member's withdrawal journeys and the admins' queue.

export const BEP20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export type Ready = { member: Member; id: string; api: APIRequestContext; from: string };

/** The member's withdrawal-code mails, newest first, as the relay received them. */
export async function withdrawalMails(request: APIRequestContext, email: string): Promise<string[]> {
  const response = await request.get(`${E2E_MAILS_URL}?to=${encodeURIComponent(email)}`);
  const { mails } = (await response.json()) as { mails: { text: string }[] };
  return mails.map((m) => m.text).filter((text) => text.includes(MAIL_TEXT_OTP.withdrawalIntro));
}

/** The code of the withdrawal mail that arrives after `seen` earlier ones. */
export async function nextWithdrawalCode(
  request: APIRequestContext,
  email: string,
  seen: number,
): Promise<string> {
  let texts: string[] = [];
  await expect
    .poll(async () => {
      texts = await withdrawalMails(request, email);
      return texts.length;
    })
    .toBeGreaterThan(seen);
  const code = /\b(\d{6})\b/.exec(texts[0] ?? '')?.[1];
  expect(code, texts[0]).toBeDefined();
  return code ?? '';
}

/**
 * A member ready to withdraw: e-mail verified with the mailed code, a BEP20 address set by an admin
 * (usable at once, RULES.md) and Income Working funded by an audited adjustment.
 */
export async function readyMember(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  admin: APIRequestContext,
  tag: string,
  working?: string,
): Promise<Ready> {
  const member = newMember(tag);
  const api = await playwright.request.newContext({ baseURL });
  await registerByApi(api, member);
  const id = await signInByApi(api, member);
  // Code mails are limited per client address too: this member's calls come from an address of its own.
  const from = nextClientAddress();
  const asked = await api.post('/api/v1/auth/email-verification', {
    headers: { ...(await csrfHeaders(api)), 'X-Forwarded-For': from },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  let code = '';
  await expect
    .poll(async () => {
      const response = await api.get(`${E2E_MAILS_URL}?to=${encodeURIComponent(member.email)}`);
      const { mails } = (await response.json()) as { mails: { text: string }[] };
      code = /\b(\d{6})\b/.exec(mails[0]?.text ?? '')?.[1] ?? '';
      return code;
    })
    .not.toBe('');
  const verified = await api.post('/api/v1/auth/verify-user', {
    headers: { ...(await csrfHeaders(api)), 'X-Forwarded-For': from },
    data: { otp: code },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const address = await admin.put(`/api/v1/users/${id}`, {
    headers: await csrfHeaders(admin),
    data: { bep20: BEP20 },
  });
  expect(address.status(), await address.text()).toBe(200);
  if (working) await creditByApi(admin, id, working, 'working');
  return { member, id, api, from };
}

/** A request made through the API with a freshly mailed code (what the screen does, without the screen). */
export async function requestByApi(
  ready: Ready,
  path: string,
  data: Record<string, string>,
): Promise<{ id: string; amount: string }> {
  const seen = (await withdrawalMails(ready.api, ready.member.email)).length;
  const sent = await ready.api.post('/api/v1/otp/send', {
    headers: { ...(await csrfHeaders(ready.api)), 'X-Forwarded-For': ready.from },
    data: { userId: ready.id, email: ready.member.email, purpose: 'withdrawal' },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const otp = await nextWithdrawalCode(ready.api, ready.member.email, seen);
  const response = await ready.api.post(`/api/v1${path}`, {
    headers: { ...(await csrfHeaders(ready.api)), 'Idempotency-Key': crypto.randomUUID() },
    data: { ...data, otp },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { withdrawal: { id: string; amount: string } }).withdrawal;
}

/** A plan of this test's own; closed afterwards, so members' plan lists stay short in the shared database. */
export const createPlan = (admin: APIRequestContext, durationDays: number) =>
  createTestPlan(admin, 'Withdraw', { max_amount: '5000.00', roi_percent: '2', duration_days: durationDays });
