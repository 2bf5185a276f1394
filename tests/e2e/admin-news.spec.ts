import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { NEWS_MESSAGES } from '../../src/shared/news.ts';
import { QR_LINK_MESSAGES } from '../../src/shared/qr-links.ts';
import { solidImage } from '../fixtures/images.ts';
import { fillSignIn } from './helpers.ts';

// Issue 19 item 4 on a desktop: an admin writes news with a picture as a draft, publishes it and
// deletes it; adds a QR link (a wrong value is refused on its field first) and removes it.

test('an admin writes news with a picture, publishes it and deletes it', async ({ page }) => {
  const title = `E2E News ${Date.now().toString(36)}`;
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'News' }).click();
  await expect(page).toHaveURL(/\/admin\/news$/);
  const form = page.getByRole('form', { name: 'Write news' });
  await form.getByRole('button', { name: 'Save news' }).click();
  await expect(form.getByText(NEWS_MESSAGES.titleRequired)).toBeVisible();
  await expect(form.getByText(NEWS_MESSAGES.bodyRequired)).toBeVisible();

  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Text').fill('The new plan opens on Monday.\nRead the details on your dashboard.');
  await form
    .getByLabel('Picture (optional)')
    .setInputFiles({ name: 'plan.png', mimeType: 'image/png', buffer: await solidImage('png', 400, 240) });
  await form.getByRole('button', { name: 'Save news' }).click();
  await expect(page.getByRole('status').filter({ hasText: NEWS_MESSAGES.created })).toBeVisible();
  const row = page.getByTestId('admin-news').getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Draft');
  await expect(row).toContainText('Yes');

  await row.getByRole('button', { name: `Publish ${title}` }).click();
  await expect(page.getByRole('status').filter({ hasText: NEWS_MESSAGES.updated })).toBeVisible();
  await expect(row).toContainText('Published');

  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${title}` });
  await expect(edit.getByLabel('Published (members see it)')).toBeChecked();
  await edit.getByLabel('Title').fill(`${title} (updated)`);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: NEWS_MESSAGES.updated })).toBeVisible();
  const updated = page
    .getByTestId('admin-news')
    .getByRole('row')
    .filter({ hasText: `${title} (updated)` });
  await expect(updated).toContainText('Published');

  await updated.getByRole('button', { name: `Delete ${title} (updated)` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: NEWS_MESSAGES.deleted })).toBeVisible();
  await expect(page.getByTestId('admin-news').getByRole('row').filter({ hasText: title })).toHaveCount(0);
});

test('an admin adds a QR link, sees its code, and removes it', async ({ page }) => {
  const label = `E2E Guide ${Date.now().toString(36)}`;
  await page.goto('/admin-login');
  await fillSignIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'QR links' }).click();
  await expect(page).toHaveURL(/\/admin\/qr-links$/);
  const form = page.getByRole('form', { name: 'New QR link' });
  await form.getByLabel('Label').fill(label);
  await form.getByLabel('https:// link or wallet address').fill('http://example.com/guide');
  await form.getByRole('button', { name: 'Add QR link' }).click();
  await expect(form.getByText(QR_LINK_MESSAGES.valueInvalid)).toBeVisible();

  await form.getByLabel('https:// link or wallet address').fill('https://example.com/deposit-guide');
  await form.getByRole('button', { name: 'Add QR link' }).click();
  await expect(page.getByRole('status').filter({ hasText: QR_LINK_MESSAGES.created })).toBeVisible();
  const row = page.getByTestId('qr-links').getByRole('row').filter({ hasText: label });
  await expect(row).toContainText('https://example.com/deposit-guide');
  await expect(row.getByRole('img', { name: `QR code: ${label}` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Edit ${label}` })).toHaveCount(0);

  await row.getByRole('button', { name: `Delete ${label}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: QR_LINK_MESSAGES.deleted })).toBeVisible();
  await expect(page.getByTestId('qr-links').getByRole('row').filter({ hasText: label })).toHaveCount(0);
});
