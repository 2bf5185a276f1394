import { type APIRequestContext, expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { WALLET_LABELS, WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { csrfHeaders, newMember, registerByApi, signInMember } from './helpers.ts';

// Spec 3 wallets on a phone: a new member holds $0.00 in both, and money an admin credits shows up on the
// dashboard. One registration. The admin works in an API context of its own: signing in as an admin in
// the member's browser would end the member's session there (one person per browser).

async function creditAsAdmin(request: APIRequestContext, email: string, amount: string): Promise<void> {
  const signIn = await request.post('/api/v1/auth/adminsignin', {
    headers: await csrfHeaders(request),
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);

  const lookup = await request.get(`/api/v1/users?email=${encodeURIComponent(email)}`);
  expect(lookup.status(), await lookup.text()).toBe(200);
  const { emailuser } = (await lookup.json()) as { emailuser: { id: string; email: string } };
  expect(emailuser.email).toBe(email.toLowerCase());

  const adjustment = await request.post('/api/v1/admin/adjustments', {
    headers: { ...(await csrfHeaders(request)), 'Idempotency-Key': crypto.randomUUID() },
    data: {
      user_id: emailuser.id,
      wallet: 'business',
      direction: 'credit',
      amount,
      reason: 'E2E: opening credit',
    },
  });
  expect(adjustment.status(), await adjustment.text()).toBe(201);
  expect(((await adjustment.json()) as { message: string }).message).toBe(WALLET_MESSAGES.adjusted);
}

test('a new member sees both wallets at $0.00, then the amount an admin credits', async ({
  page,
  request,
}) => {
  const member = newMember('wallets');
  await registerByApi(request, member);
  await signInMember(page, member);

  const wallets = page.getByRole('region', { name: 'Your wallets' });
  await expect(wallets.getByText(WALLET_LABELS.business, { exact: true })).toBeVisible();
  await expect(wallets.getByText(WALLET_LABELS.working, { exact: true })).toBeVisible();
  await expect(page.getByTestId('balance-business')).toHaveText('$0.00');
  await expect(page.getByTestId('balance-working')).toHaveText('$0.00');

  await creditAsAdmin(request, member.email, '125.50');

  await page.reload();
  await expect(page.getByRole('heading', { name: `Welcome, ${member.fullname}` })).toBeVisible();
  await expect(page.getByTestId('balance-business')).toHaveText('$125.50');
  await expect(page.getByTestId('balance-working')).toHaveText('$0.00');
  // Each amount sits under its own wallet's label.
  await expect(wallets.getByRole('term').first()).toHaveText(WALLET_LABELS.business);
  await expect(wallets.getByRole('definition').first()).toHaveText('$125.50');
});
