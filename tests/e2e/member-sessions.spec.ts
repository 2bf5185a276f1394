import { type APIRequestContext, expect, test } from '@playwright/test';
import { SESSIONS, SESSIONS_TEXT } from '../../src/shared/sessions.ts';
import { csrfHeaders, newMember, nextClientAddress, registerByApi, signInMember } from './helpers.ts';

// Issue 14, item 5, on a phone: the profile lists where the member is signed in (this phone first,
// then a an iPhone and a laptop by name and address), signs out one other device, then all others;
// the devices signed out find their sessions gone, and this phone stays signed in.

// This test's own browser is an Android phone (Chrome on Android): the others are an iPhone and a laptop.
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0';

/** Another device: a request context with its own cookies, user agent and address, signed in. */
async function signInElsewhere(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  baseURL: string | undefined,
  credentials: { email: string; password: string },
  userAgent: string,
) {
  const address = nextClientAddress();
  const device = await playwright.request.newContext({ baseURL, userAgent });
  const response = await device.post('/api/v1/auth/signin', {
    headers: { ...(await csrfHeaders(device)), 'X-Forwarded-For': address },
    data: credentials,
  });
  expect(response.status(), await response.text()).toBe(200);
  return { device, address };
}

test('a member sees the signed-in devices on the profile and signs out the others', async ({
  page,
  playwright,
  baseURL,
}) => {
  const member = newMember('devices');
  const registrar = await playwright.request.newContext({ baseURL });
  await registerByApi(registrar, member);
  await signInMember(page, member);
  const phone = await signInElsewhere(playwright, baseURL, member, IPHONE_UA);
  const laptop = await signInElsewhere(playwright, baseURL, member, WINDOWS_UA);
  try {
    const session = await page.request.get('/api/v1/auth/session');
    const { auth } = (await session.json()) as { auth: { id: string } };
    await page.goto(`/user/profile/${auth.id}`);

    const card = page.getByRole('region', { name: SESSIONS_TEXT.title });
    const rows = card.getByTestId('session-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText(SESSIONS_TEXT.thisDevice);
    await expect(rows.first()).toContainText('Chrome on Android');
    // This phone signs itself out with Sign out, not from this list.
    await expect(rows.first().getByRole('button')).toHaveCount(0);
    const phoneRow = rows.filter({ hasText: 'Safari on iOS' });
    await expect(phoneRow).toContainText(phone.address);
    await expect(rows.filter({ hasText: 'Microsoft Edge on Windows' })).toContainText(laptop.address);

    const signOutPhone = phoneRow.getByRole('button', { name: new RegExp(`^${SESSIONS_TEXT.endOne}`) });
    expect((await signOutPhone.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await signOutPhone.click();
    await expect(page.getByText(SESSIONS.ended)).toBeVisible();
    await expect(rows).toHaveCount(2);
    expect((await phone.device.get('/api/v1/auth/session')).status()).toBe(401);
    expect((await laptop.device.get('/api/v1/auth/session')).status()).toBe(200);

    await card.getByRole('button', { name: SESSIONS_TEXT.endOthers }).click();
    await expect(page.getByText(SESSIONS.othersEnded)).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(card.getByText(SESSIONS_TEXT.none)).toBeVisible();
    expect((await laptop.device.get('/api/v1/auth/session')).status()).toBe(401);

    // This phone is still signed in: a reload keeps the profile.
    await page.reload();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(SESSIONS_TEXT.thisDevice);
  } finally {
    await Promise.all([phone.device.dispose(), laptop.device.dispose(), registrar.dispose()]);
  }
});
