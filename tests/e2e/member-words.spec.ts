import { expect, type Page, test } from '@playwright/test';
import { GLOSSARY } from '../../src/client/ui/glossary.ts';
import { TRANSFER_MESSAGES } from '../../src/shared/transfers.ts';
import { newMember, registerByApi, signInMember } from './helpers.ts';

// Words a new member can follow on a phone: a "?" beside a term of art opens its plain definition,
// adding money is one entry that explains each way the platform has set up, buying a plan is
// "Invest", and "Active" names a wallet only, never the account's badge.

test.use({ viewport: { width: 360, height: 740 } });

async function signedIn(page: Page, tag: string) {
  const member = newMember(tag);
  await registerByApi(page.request, member);
  await signInMember(page, member);
  return member;
}

test('a "?" beside a wallet opens its definition, which fits the phone and closes with Close or Escape', async ({
  page,
}) => {
  await signedIn(page, 'glossary');
  const wallets = page.getByRole('region', { name: 'Your wallets' });
  const help = wallets.getByRole('button', { name: 'What is Income Working?' });
  await expect(help).toBeVisible();
  const target = await help.boundingBox();
  expect(target?.height).toBeGreaterThanOrEqual(44);
  expect(target?.width).toBeGreaterThanOrEqual(44);

  await help.click();
  const definition = page.getByRole('note', { name: 'Income Working' });
  await expect(definition).toBeVisible();
  await expect(definition).toContainText(GLOSSARY.incomeWorking.definition);
  const box = await definition.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
  await definition.getByRole('button', { name: 'Close' }).click();
  await expect(definition).toBeHidden();

  await wallets.getByRole('button', { name: 'What is Active Wallet?' }).click();
  const active = page.getByRole('note', { name: 'Active Wallet' });
  await expect(active).toContainText(GLOSSARY.activeWallet.definition);
  await page.keyboard.press('Escape');
  await expect(active).toBeHidden();

  // The withdrawal form explains the words of the kind chosen.
  await page.goto('/user/withdrawal');
  await page.getByRole('tab', { name: 'ROI' }).click();
  await page.getByTestId('withdrawal-terms').getByRole('button', { name: 'What is Income cap?' }).click();
  await expect(page.getByRole('note', { name: 'Income cap' })).toContainText(GLOSSARY.incomeCap.definition);
});

test('"Add money" in the bottom bar offers each way set up, says when it suits, and leads to it', async ({
  page,
}) => {
  await signedIn(page, 'addmoney');
  const bar = page.getByRole('navigation', { name: 'Member' });
  await bar.getByRole('link', { name: 'Add money' }).click();
  await expect(page).toHaveURL(/\/user\/add-money$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add money' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Add money' })).toHaveAttribute('aria-current', 'page');

  // This server has a deposit address: all three ways, in order, each saying when it suits.
  const ways = page.getByRole('list', { name: 'Ways to add money' }).getByRole('listitem');
  await expect(ways.getByRole('heading', { level: 2 })).toHaveText([
    'Pay an invoice',
    'Send from your own wallet',
    'Report a payment you made',
  ]);
  for (const way of await ways.all()) await expect(way).toContainText('Suits');

  await page.getByRole('link', { name: 'Create an invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crypto Payment Gateway' })).toBeVisible();
  // Still under "Add money" in the bottom bar.
  await expect(bar.getByRole('link', { name: 'Add money' })).toHaveAttribute('aria-current', 'page');

  await page.goBack();
  await page.getByRole('link', { name: 'Send on chain' }).click();
  await expect(page.getByTestId('web3-deposit-address')).toBeVisible();

  await page.goBack();
  await page.getByRole('link', { name: 'Report a payment' }).click();
  await expect(page).toHaveURL(/\/user\/deposit-history#manual-deposit$/);
  // Loaded after the page, the form is still scrolled to, its heading below the sticky header.
  const heading = page.getByRole('heading', { name: 'Manual deposit', exact: true });
  await expect(heading).toBeInViewport();
  const header = await page.locator('.member-header').boundingBox();
  await expect
    .poll(async () => (await heading.boundingBox())?.y)
    .toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
});

test('buying a plan is "Invest", and a new account reads "Not activated yet", never "Inactive"', async ({
  page,
}) => {
  await signedIn(page, 'invest');
  await expect(page.getByTestId('activation-status')).toHaveText('Not activated yet');
  await expect(page.getByText(/\bInactive\b/)).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'Invest' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invest' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Invest in a plan' })).toBeVisible();
  await expect(page.getByText(/top.?up/i)).toHaveCount(0);

  // A transfer says what activates an account, and where to go.
  await page.goto('/user/transfer-form');
  await expect(page.getByTestId('sender-notice')).toContainText(TRANSFER_MESSAGES.inactiveNotice);
  await expect(page.getByTestId('sender-notice')).not.toContainText('An admin activates');
});
