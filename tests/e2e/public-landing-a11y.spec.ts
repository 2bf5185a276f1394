import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

// Issue 5: the landing page works with a keyboard and a screen reader. axe-core finds no violation
// (every rule it runs, best practices included) in the states a visitor can put the page in, the focus
// order follows the page, and focus is always visible.

async function axeViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The focused element's name and whether its focus ring is drawn. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
    return { name, ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2 };
  });
}

test.describe('landing page accessibility', () => {
  test('axe finds nothing on a phone: at load, menu open, answers open, forms answered', async ({ page }) => {
    await page.goto('/');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('banner').getByText('Menu', { exact: true }).click();
    await page.locator('#faq').getByRole('button').first().click();
    await page.locator('#contact').getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click();
    await page.evaluate(() => window.scrollTo({ top: 200, behavior: 'instant' }));
    await expect(page.locator('.site-header')).toHaveClass(/is-scrolled/);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('axe finds nothing on a desktop screen, before and after the header changes', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
    await expect(page.locator('.site-header')).toHaveClass(/is-scrolled/);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the app’s public header with the landing links passes axe too', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('banner').getByText('Menu', { exact: true }).click();
    expect(await axeViolations(page, '.public-header')).toEqual([]);
  });

  test('landmarks and names a screen reader lists', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('complementary', { name: 'Risk warning' })).toHaveCount(1);
    await expect(page.getByRole('banner')).toHaveCount(1);
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('contentinfo')).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Blog posts' })).toHaveAttribute(
      'aria-roledescription',
      'carousel',
    );
    for (const name of ['About us', 'Why choose us', 'How the platform works', 'Get started in four steps'])
      await expect(page.getByRole('region', { name })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  });

  test('Tab walks the page in reading order with a visible focus ring', async ({ page }) => {
    await page.goto('/');
    const names: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.ring, `focus ring on "${now.name}"`).toBe(true);
      names.push(now.name);
    }
    expect(names).toEqual([
      'Skip to content',
      'Pause the scrolling risk warning',
      'Member Platform',
      'Menu',
      'Sign Up',
      'Login',
      'Start Trading Now',
      'Learn More Today',
    ]);
  });

  test('the skip link jumps past the header to the page’s content', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Start Trading Now');
  });

  test('the phone menu opens with the keyboard and Escape closes it', async ({ page }) => {
    await page.goto('/');
    const summary = page.getByRole('banner').getByText('Menu', { exact: true });
    await summary.focus();
    await page.keyboard.press('Enter');
    const nav = page.getByRole('banner').getByRole('navigation', { name: 'Sections' });
    await expect(nav).toBeVisible();
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Home');
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    expect((await focused(page)).name).toBe('Menu');
  });

  test('on a desktop screen Tab reaches the section links, then Sign Up and Login', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const names: string[] = [];
    for (let i = 0; i < 11; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.ring, `focus ring on "${now.name}"`).toBe(true);
      names.push(now.name);
    }
    expect(names.slice(2)).toEqual([
      'Member Platform',
      'Home',
      'About',
      'Choose Us',
      'Process',
      'Contact',
      'Blogs',
      'Sign Up',
      'Login',
    ]);
  });
});
