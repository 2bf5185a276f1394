import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_MAILS_URL } from '../../playwright.config.ts';

// Shared by the e2e specs. Registration is rate limited per address (20 per 10 minutes) and every spec
// runs against the one server of the run. The e2e server trusts X-Forwarded-For (TRUST_PROXY, as behind
// a real proxy), so registrations and sign-ins come from an address of their own, as from many phones;
// otherwise one run's sign-ins would pass the per-address limit (100 a quarter hour) and fail at random.
// Registrations through the browser share 127.0.0.1, so specs register in the browser only what they
// test there.

export type Member = {
  fullname: string;
  username: string;
  email: string;
  phone: string;
  password: string;
};

let counter = 0;

/** A member nobody registered yet in this run: unique username and e-mail, a password no list holds. */
export function newMember(tag: string): Member {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
  return {
    fullname: `E2e ${tag} Tester`,
    username: `e2e_${id}`,
    email: `e2e.${tag}.${id}@example.com`,
    phone: `+4479${String(Date.now()).slice(-7)}${counter % 10}`,
    password: `Violet-Harbour-${id}`,
  };
}

/** The CSRF dance every state-changing API call needs: GET the token, then send it as X-XSRF-TOKEN. */
export async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const response = await request.get('/api/v1/auth/csrf');
  expect(response.status()).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { 'X-XSRF-TOKEN': csrfToken };
}

let addresses = 0;
/** A documentation-range address (RFC 5737) per API registration, so the per-address limit is not shared. */
export const nextClientAddress = () => {
  addresses += 1;
  return `198.51.100.${addresses % 250}`;
};

export async function registerByApi(
  request: APIRequestContext,
  member: Member,
  referralCode?: string,
): Promise<void> {
  const response = await request.post('/api/v1/auth/register', {
    headers: { ...(await csrfHeaders(request)), 'X-Forwarded-For': nextClientAddress() },
    data: { ...member, ...(referralCode ? { reffer_by: referralCode } : {}) },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Signs in through the API and returns the member's referral code (the request context keeps the cookie). */
export async function referralCodeOf(request: APIRequestContext, member: Member): Promise<string> {
  const response = await request.post('/api/v1/auth/signin', {
    headers: { ...(await csrfHeaders(request)), 'X-Forwarded-For': nextClientAddress() },
    data: { email: member.email, password: member.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { auth: { refferal_code: string } };
  return body.auth.refferal_code;
}

/** Fills a sign-in form (/login or /admin-login) the way a person does, from a phone of its own. */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': nextClientAddress() });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens /login and signs the member in; ends on the member dashboard. */
export async function signInMember(page: Page, member: Member): Promise<void> {
  await page.goto('/login');
  await fillSignIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
  // The session reaches localStorage a moment later (the persister writes at most once a second);
  // a full page load before that would start signed out.
  await expect.poll(async () => JSON.stringify(await persistedQueries(page))).toContain(member.email);
}

/** Signs the member out the way a person does: "More" in the bottom navigation, then Sign out. */
export async function signOutMember(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
  await page.getByRole('dialog', { name: 'More' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login(\?|$)/);
}

type PersistedQuery = { queryKey: unknown[]; state: { data: unknown } };

/** The queries the client keeps in localStorage under "root" (spec 3), or null when nothing is stored. */
export async function persistedQueries(page: Page): Promise<PersistedQuery[] | null> {
  const raw = await page.evaluate(() => window.localStorage.getItem('root'));
  if (raw === null) return null;
  const parsed = JSON.parse(raw) as { clientState?: { queries?: PersistedQuery[] } };
  return parsed.clientState?.queries ?? [];
}

/** Signs a member in through the API (the request context keeps the cookie) and returns their id. */
export async function signInByApi(request: APIRequestContext, member: Member): Promise<string> {
  const response = await request.post('/api/v1/auth/signin', {
    headers: { ...(await csrfHeaders(request)), 'X-Forwarded-For': nextClientAddress() },
    data: { email: member.email, password: member.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { auth: { id: string } }).auth.id;
}

/**
 * The run's admin, signed in through the API in the given request context, to arrange what a test
 * needs (credits, activation) without a browser. Use a context of its own: one person per cookie jar.
 */
export async function signInAdminByApi(
  request: APIRequestContext,
  admin: { email: string; password: string } = E2E_ADMIN,
): Promise<void> {
  const response = await request.post('/api/v1/auth/adminsignin', {
    headers: { ...(await csrfHeaders(request)), 'X-Forwarded-For': nextClientAddress() },
    data: { email: admin.email, password: admin.password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A plan's terms as POST /api/v1/plans/add takes them, less its name. */
export type PlanTerms = {
  min_amount: string;
  max_amount: string;
  roi_percent: string;
  duration_days: number;
};

/**
 * A plan of the test's own, made by the signed-in admin `admin`, its name unique in the run (`E2E <tag>
 * ...`). Members see every open plan in the shared database: close it again with closeTestPlan.
 */
export async function createTestPlan(
  admin: APIRequestContext,
  tag: string,
  terms: Partial<PlanTerms> = {},
): Promise<{ id: string; name: string }> {
  const name = `E2E ${tag} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const created = await admin.post('/api/v1/plans/add', {
    headers: await csrfHeaders(admin),
    data: { name, min_amount: '10.00', max_amount: '500.00', roi_percent: '1', duration_days: 30, ...terms },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()) as { plan: { id: string } }).plan.id, name };
}

/** Closes a plan createTestPlan made (inactive: members no longer see it). */
export async function closeTestPlan(admin: APIRequestContext, planId: string): Promise<void> {
  const closed = await admin.put(`/api/v1/plans/${planId}`, {
    headers: await csrfHeaders(admin),
    data: { status: 'inactive' },
  });
  expect(closed.status(), await closed.text()).toBe(200);
}

/** A member's id, looked up by e-mail (the request context is signed in). */
export async function memberIdOf(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.get(`/api/v1/users?email=${encodeURIComponent(email)}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { emailuser: { id: string } }).emailuser.id;
}

/** Admin: credits a member's wallet through an adjustment (with an Idempotency-Key of its own). */
export async function creditByApi(
  adminRequest: APIRequestContext,
  userId: string,
  amount: string,
  wallet: 'business' | 'working' = 'business',
): Promise<void> {
  const response = await adminRequest.post('/api/v1/admin/adjustments', {
    headers: { ...(await csrfHeaders(adminRequest)), 'Idempotency-Key': crypto.randomUUID() },
    data: { user_id: userId, wallet, direction: 'credit', amount, reason: 'E2E: opening credit' },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Admin: makes a member active (RULES.md: only active members send transfers) or inactive again. */
export async function setActiveByApi(
  adminRequest: APIRequestContext,
  userId: string,
  isActive: 'active' | 'inactive' = 'active',
): Promise<void> {
  const response = await adminRequest.put(`/api/v1/users/${userId}`, {
    headers: await csrfHeaders(adminRequest),
    data: { is_active: isActive },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export type TransferInput = {
  userto_id: string;
  amount: string;
  from: 'business' | 'working';
  to: 'business' | 'working';
  desc?: string;
};

/** A member (signed in in this request context) sends a transfer through the API; returns the transfer. */
export async function transferByApi(
  request: APIRequestContext,
  input: TransferInput,
): Promise<{ id: string; status: string; amount: string; created_at: string }> {
  const response = await request.post('/api/v1/transfer/touser', {
    headers: { ...(await csrfHeaders(request)), 'Idempotency-Key': crypto.randomUUID() },
    data: input,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (
    (await response.json()) as {
      transfer: { id: string; status: string; amount: string; created_at: string };
    }
  ).transfer;
}

/** The newest mail to this address whose text matches, as the relay received it. */
export async function mailText(request: APIRequestContext, to: string, pattern: RegExp): Promise<string> {
  let found = '';
  await expect
    .poll(async () => {
      const response = await request.get(`${E2E_MAILS_URL}?to=${encodeURIComponent(to)}`);
      const { mails } = (await response.json()) as { mails: { text: string }[] };
      found = mails.find((mail) => pattern.test(mail.text))?.text ?? '';
      return found;
    })
    .not.toBe('');
  return found;
}

/** A control a thumb can hit: at least 44 px high. */
export async function expectTapTarget(target: Locator) {
  const box = await target.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
}
