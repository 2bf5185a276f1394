import { expect, test } from '@playwright/test';
import { ACCOUNT } from '../../src/shared/account.ts';
import { ADDRESS_MESSAGES } from '../../src/shared/payout-address.ts';
import { PROFILE, PROFILE_TEXT } from '../../src/shared/profile.ts';
import { TRADE_MESSAGES, TRADE_TEXT } from '../../src/shared/trade.ts';
import {
  expectTapTarget,
  mailText,
  newMember,
  referralCodeOf,
  registerByApi,
  signInByApi,
  signInMember,
} from './helpers.ts';

// Issue 14 on a phone: the member opens the profile from "More", changes name and phone, and changes
// the BEP20 payout address with the code mailed to them (read from the run's mail relay, as from their
// inbox); a mistyped address is refused on its field before any code is spent. Another member's
// profile address is the not-found page.

const BEP20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
// The same address with its last letter's case flipped: the EIP-55 checksum no longer matches.
const BEP20_TYPO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';

test('a member edits the profile and changes the BEP20 address with the e-mailed code', async ({
  page,
  playwright,
}) => {
  const sponsor = newMember('sponsor');
  const member = newMember('profile');
  const api = await playwright.request.newContext();
  const sponsorApi = await playwright.request.newContext();
  try {
    await registerByApi(sponsorApi, sponsor);
    await registerByApi(api, member, await referralCodeOf(sponsorApi, sponsor));
    await signInMember(page, member);

    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page
      .getByRole('dialog', { name: 'More' })
      .getByRole('link', { name: PROFILE_TEXT.profileLink })
      .click();
    await expect(page).toHaveURL(/\/user\/profile\/[^/]+$/);
    await expect(page.getByRole('heading', { name: PROFILE_TEXT.title, exact: true })).toBeVisible();
    const details = page.getByRole('region', { name: PROFILE_TEXT.details });
    await expect(details.getByTestId('profile-username')).toHaveText(member.username);
    await expect(details.getByTestId('profile-sponsor')).toContainText(sponsor.fullname);

    await details.getByLabel(PROFILE_TEXT.fullname).fill('Grace Hopper');
    await details.getByLabel(PROFILE_TEXT.phone).fill('+1 555 010 0777');
    const save = details.getByRole('button', { name: PROFILE_TEXT.save, exact: true });
    await expectTapTarget(save);
    await save.click();
    await expect(details.getByTestId('banner-success')).toHaveText(PROFILE.updated);
    await expect(page.getByTestId('member-name')).toHaveText('Grace Hopper');
    await expect(details.getByLabel(PROFILE_TEXT.phone)).toHaveValue('+15550100777');

    const addresses = page.getByRole('region', { name: PROFILE_TEXT.addresses });
    const bep20 = addresses.getByTestId('address-bep20');
    await expect(bep20).toContainText(PROFILE_TEXT.notSet);
    const change = bep20.getByRole('button', { name: 'Change BEP20 address' });
    await expectTapTarget(change);
    await change.click();

    const field = bep20.getByLabel(PROFILE_TEXT.newAddress('BEP20'));
    await field.fill(BEP20_TYPO);
    await bep20.getByRole('button', { name: PROFILE_TEXT.saveAddress }).click();
    await expect(bep20.getByText(ADDRESS_MESSAGES.bep20Checksum)).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    await field.fill(BEP20);
    const sendCode = bep20.getByRole('button', { name: PROFILE_TEXT.sendCode });
    await expectTapTarget(sendCode);
    await sendCode.click();
    await expect(bep20.getByTestId('banner-success')).toHaveText(ACCOUNT.codeSent);
    const text = await mailText(api, member.email, /\b\d{6}\b/);
    const code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    await bep20.getByLabel(PROFILE_TEXT.code).fill(code);
    const saveAddress = bep20.getByRole('button', { name: PROFILE_TEXT.saveAddress });
    await expectTapTarget(saveAddress);
    await saveAddress.click();

    await expect(bep20.getByTestId('address-bep20-value')).toHaveText(BEP20);
    await expect(bep20.getByTestId('banner-success')).toHaveText(PROFILE.updated);
    await expect(bep20.getByTestId('address-bep20-usable')).toContainText('Usable for withdrawals from');
    await expect(bep20.getByRole('button', { name: PROFILE_TEXT.copy })).toBeVisible();
    // A reload reads the address back from the server.
    await page.reload();
    await expect(page.getByTestId('address-bep20-value')).toHaveText(BEP20);
  } finally {
    await api.dispose();
    await sponsorApi.dispose();
  }
});

test("another member's profile address shows the not-found page", async ({ page, playwright }) => {
  const member = newMember('profileown');
  const other = newMember('profileother');
  const api = await playwright.request.newContext();
  try {
    await registerByApi(api, member);
    await registerByApi(api, other);
    const otherId = await signInByApi(api, other);
    await signInMember(page, member);
    await page.goto(`/user/profile/${otherId}`);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByText(other.email)).toHaveCount(0);
  } finally {
    await api.dispose();
  }
});

// Self-trade (docs/rules.md "Self-trade") on a phone: the member chooses the pair they trade, saves it,
// and it is still theirs after a reload, on the screen and on the server.
test('a member chooses a trading pair on the profile and it stays after a reload', async ({
  page,
  playwright,
}) => {
  const member = newMember('pair');
  const api = await playwright.request.newContext();
  try {
    await registerByApi(api, member);
    await signInMember(page, member);
    await page.getByRole('navigation', { name: 'Member' }).getByRole('button', { name: 'More' }).click();
    await page
      .getByRole('dialog', { name: 'More' })
      .getByRole('link', { name: PROFILE_TEXT.profileLink })
      .click();

    const card = page.getByRole('region', { name: TRADE_TEXT.title });
    await expect(card.getByTestId('self-trade-current')).toHaveText(TRADE_TEXT.none);
    const select = card.getByLabel(TRADE_TEXT.pair, { exact: true });
    await expectTapTarget(select);
    await select.selectOption({ label: 'ETH/USDT' });
    const save = card.getByRole('button', { name: TRADE_TEXT.save, exact: true });
    await expectTapTarget(save);
    await save.click();
    await expect(card.getByTestId('banner-success')).toHaveText(TRADE_MESSAGES.saved);
    await expect(card.getByTestId('self-trade-current')).toHaveText('ETH/USDT');

    await page.reload();
    const after = page.getByRole('region', { name: TRADE_TEXT.title });
    await expect(after.getByTestId('self-trade-current')).toHaveText('ETH/USDT');
    await expect(after.getByLabel(TRADE_TEXT.pair, { exact: true })).toHaveValue('ETHUSDT');
    // Saved on the server, not only in this browser's copy of the session.
    await signInByApi(api, member);
    const session = await api.get('/api/v1/auth/session');
    expect((await session.json()).auth.self_trade_pair).toBe('ETHUSDT');
  } finally {
    await api.dispose();
  }
});
