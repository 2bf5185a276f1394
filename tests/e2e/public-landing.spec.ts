import { expect, type Page, test } from '@playwright/test';
import { BLOG, FOOTER } from '../../src/landing/content.ts';
import { LANDING_LINKS } from '../../src/shared/landing.ts';
import { RISK_DISCLAIMER } from '../../src/shared/messages.ts';
import { pageWords, promisesIn } from './honesty.ts';

// Issue 5: the landing page's content, order, links and forms, on a phone unless a test says otherwise.
// Motion (counters, carousel, marquee) is in public-landing-motion.spec.ts, accessibility in
// public-landing-a11y.spec.ts, what it downloads in public-delivery.spec.ts.

const ANCHORS = ['about', 'choose', 'process', 'contact', 'blogs'] as const;

/** A Read More link's name: the visible words, then the post's title (hidden text, its own block). */
const readMore = (title: string) =>
  new RegExp(`^Read More\\s*:\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** The section's top edge sits just below the sticky header: the page scrolled to it. */
async function expectScrolledTo(page: Page, id: string) {
  await expect
    .poll(async () =>
      page.evaluate((target) => {
        const top = document.getElementById(target)?.getBoundingClientRect().top ?? -1;
        const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
        return top >= header - 1 && top <= header + 40;
      }, id),
    )
    .toBe(true);
}

/** Opens the phone's section menu (a native disclosure) and returns its navigation. */
async function openMenu(page: Page) {
  if ((await page.locator('[data-nav-menu]').getAttribute('open')) === null)
    await page.getByRole('banner').getByText('Menu', { exact: true }).click();
  const nav = page.getByRole('banner').getByRole('navigation', { name: 'Sections' });
  await expect(nav).toBeVisible();
  return nav;
}

test.describe('landing page content', () => {
  test('sections come in the issue’s order, inside one banner, one main and one footer', async ({ page }) => {
    await page.goto('/');
    const order = await page.evaluate(() =>
      [...document.querySelectorAll('body > aside, body > header, main > section, body > footer')].map(
        (el) => el.id || el.getAttribute('aria-label') || el.tagName.toLowerCase(),
      ),
    );
    expect(order).toEqual([
      'Risk warning',
      'header',
      'section', // the hero
      'about',
      'choose',
      'how-it-works',
      'banner',
      'process',
      'faq',
      'blogs',
      'contact',
      'footer',
    ]);
    await expect(page.getByRole('banner')).toHaveCount(1);
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('contentinfo')).toHaveCount(1);
    // The unnamed section says what the member app does, in plain words.
    await expect(page.locator('#how-it-works h2')).toHaveText('How the platform works');
    // The limits are settings an admin changes while the page stays prerendered: it names none of them.
    await expect(page.locator('#how-it-works')).toContainText(
      'within a daily limit shown on your transfer screen. Large transfers wait for a review',
    );
    await expect(page.locator('#how-it-works')).not.toContainText('$25,000');
  });

  test('the risk disclaimer is real, visible on arrival, and nothing promises a return', async ({ page }) => {
    await page.goto('/');
    const note = page.getByRole('complementary', { name: 'Risk warning' }).getByRole('note');
    await expect(note).toBeInViewport();
    // Said once: the copy that closes the scrolling loop is hidden from screen readers.
    await expect(note.locator('p').first()).toHaveText(RISK_DISCLAIMER);
    await expect(note.locator('p[aria-hidden="true"]')).toHaveCount(1);
    await expect(note.locator('p:not([aria-hidden])')).toHaveCount(1);
    expect(RISK_DISCLAIMER).toMatch(/can lose some or all of the money/);
    expect(RISK_DISCLAIMER).toMatch(/Past returns promise nothing/);

    // Every word on the page, answers and hidden labels included; the landing page never even says
    // "not guaranteed": it names no return at all.
    const text = await pageWords(page);
    expect(text).not.toMatch(/guarantee/i);
    expect(promisesIn(text)).toEqual([]);
    await expect(page.locator('#faq')).toContainText('you can lose some or all of the money you put in');
  });

  test('the header changes its look past 50 px of scroll, and back', async ({ page }) => {
    await page.goto('/');
    const header = page.locator('.site-header');
    const scrollTo = (top: number) =>
      page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
    const look = () => header.evaluate((el) => getComputedStyle(el).backgroundColor);
    await expect(header).not.toHaveClass(/is-scrolled/);
    const atTop = await look();
    await scrollTo(50);
    await page.waitForTimeout(100);
    await expect(header).not.toHaveClass(/is-scrolled/);
    await scrollTo(51);
    await expect(header).toHaveClass(/is-scrolled/);
    await expect.poll(look).not.toBe(atTop);
    // It stays put and keeps its size: only its colours change.
    const box = await header.boundingBox();
    expect(box?.y).toBe(0);
    await scrollTo(0);
    await expect(header).not.toHaveClass(/is-scrolled/);
    expect((await header.boundingBox())?.height).toBe(box?.height);
  });

  test('the header links go to their sections, in order, then Sign Up and Login', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    const nav = await openMenu(page);
    const links = nav.getByRole('link');
    await expect(links).toHaveText(LANDING_LINKS.map((link) => link.label));
    for (const [i, link] of LANDING_LINKS.entries())
      await expect(links.nth(i)).toHaveAttribute('href', `#${link.anchor}`);
    // Sign Up and Login follow the sections, in the header's focus order too.
    const names = await header
      .getByRole('link')
      .evaluateAll((all) => all.filter((a) => a.checkVisibility()).map((a) => a.textContent?.trim()));
    expect(names.slice(-8)).toEqual([...LANDING_LINKS.map((link) => link.label), 'Sign Up', 'Login']);
    await expect(header.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/registration');
    await expect(header.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');

    for (const anchor of ANCHORS) {
      const menu = await openMenu(page);
      await menu.getByRole('link', { name: LANDING_LINKS.find((l) => l.anchor === anchor)?.label }).click();
      await expect(page).toHaveURL(new RegExp(`/#${anchor}$`));
      await expectScrolledTo(page, anchor);
      // Choosing a section folds the menu away again.
      await expect(menu).toBeHidden();
    }
    await (await openMenu(page)).getByRole('link', { name: 'Home' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('on a wide screen the section links sit in the header itself', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const nav = page.getByRole('banner').getByRole('navigation', { name: 'Sections' });
    await expect(nav).toBeVisible();
    await expect(page.getByRole('banner').getByText('Menu', { exact: true })).toBeHidden();
    await nav.getByRole('link', { name: 'Choose Us' }).click();
    await expectScrolledTo(page, 'choose');
    await nav.getByRole('link', { name: 'Blogs' }).click();
    await expectScrolledTo(page, 'blogs');
  });

  for (const [from, label, anchor] of [
    ['/login', 'Process', 'process'],
    ['/registration', 'Contact', 'contact'],
    ['/unauthorized', 'About', 'about'],
  ] as const) {
    test(`from ${from}, ${label} opens the landing page at #${anchor}`, async ({ page }) => {
      await page.goto(from);
      await page.getByRole('banner').getByText('Menu', { exact: true }).click();
      await page.getByRole('banner').getByRole('link', { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/#${anchor}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'Secure, educational and transparent crypto trading',
      );
      // The static landing page, not the app drawing a copy of it.
      await expect(page.locator('#root')).toHaveCount(0);
      await expectScrolledTo(page, anchor);
    });
  }

  test('Home in the app’s header opens the landing page at its top', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('banner').getByText('Menu', { exact: true }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('.hero h1')).toBeInViewport();
  });

  test('the hero’s buttons: Start Trading Now signs up, Learn More Today scrolls to about', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.locator('.hero')).toContainText('Secure, educational and transparent');
    await page.getByRole('link', { name: 'Learn More Today' }).click();
    await expect(page).toHaveURL(/\/#about$/);
    await expectScrolledTo(page, 'about');
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Trading Now' }).click();
    await expect(page).toHaveURL(/\/registration$/);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  });

  test('about shows the 85 and 95 percent goals, and Discover Our Story leads to login', async ({ page }) => {
    await page.goto('/');
    const about = page.locator('#about');
    await expect(about.getByRole('progressbar')).toHaveCount(2);
    await expect(about.getByRole('progressbar').first()).toHaveAttribute('value', '85');
    await expect(about.getByRole('progressbar').last()).toHaveAttribute('value', '95');
    await expect(about).toContainText('85%');
    await expect(about).toContainText('95%');
    await about.getByRole('link', { name: 'Discover Our Story' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the four steps each have a plus button to login', async ({ page }) => {
    await page.goto('/');
    const steps = page.locator('#process ol > li');
    await expect(steps).toHaveCount(4);
    for (let i = 1; i <= 4; i++) {
      const plus = page.getByRole('link', { name: `Log in to start step ${i}` });
      await expect(plus).toHaveAttribute('href', '/login');
      // A phone has no hover: the button shows from the start.
      await plus.scrollIntoViewIfNeeded();
      await expect(plus).toHaveCSS('opacity', '1');
    }
    await page.getByRole('link', { name: 'Log in to start step 3' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('FAQ answers open and close individually (spec 2), by mouse and by keyboard', async ({ page }) => {
    await page.goto('/');
    const faq = page.locator('#faq');
    const questions = faq.getByRole('button');
    await expect(questions).toHaveCount(6);
    for (const question of await questions.all())
      await expect(question).toHaveAttribute('aria-expanded', 'false');
    await expect(faq.getByRole('region')).toHaveCount(0);

    const withdrawals = faq.getByRole('button', { name: 'How long do withdrawals take?' });
    await withdrawals.click();
    await expect(withdrawals).toHaveAttribute('aria-expanded', 'true');
    const answer = faq.getByRole('region', { name: 'How long do withdrawals take?' });
    await expect(answer).toBeVisible();
    await expect(answer).toContainText('1 to 24 hours');

    // Opening another answer leaves the first one open; each closes on its own.
    const lose = faq.getByRole('button', { name: 'Can I lose money?' });
    await lose.click();
    await expect(lose).toHaveAttribute('aria-expanded', 'true');
    await expect(withdrawals).toHaveAttribute('aria-expanded', 'true');
    await expect(answer).toBeVisible();
    await expect(faq.getByRole('region')).toHaveCount(2);
    await lose.click();
    await expect(lose).toHaveAttribute('aria-expanded', 'false');
    await expect(answer).toBeVisible();
    await expect(faq.getByRole('region')).toHaveCount(1);
    await withdrawals.click();
    await expect(faq.getByRole('region')).toHaveCount(0);

    await withdrawals.focus();
    await page.keyboard.press('Enter');
    await expect(withdrawals).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Space');
    await expect(withdrawals).toHaveAttribute('aria-expanded', 'false');
  });

  test('the contact form checks nothing, sends nothing and says so', async ({ page }) => {
    await page.goto('/#contact');
    const contact = page.locator('#contact');
    await expect(contact).toContainText('nothing you type here is sent or stored');
    // Pictures further down may still load; anything else would be the form sending.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' || !new URL(request.url()).pathname.startsWith('/assets/'))
        sent.push(`${request.method()} ${request.url()}`);
    });
    // Not even the browser's own checks: an empty form and a bad e-mail go through the same way.
    await contact.getByLabel('E-mail').fill('not an e-mail');
    await contact.getByRole('button', { name: 'Send message' }).click();
    const status = contact.getByRole('status');
    await expect(status).toHaveText(/Nothing was sent: this form is not connected yet/);
    await contact.getByLabel('Name').fill('Ada');
    await contact.getByLabel('Message').fill('Hello');
    await contact.getByRole('button', { name: 'Send message' }).click();
    await expect(status).toHaveText(/Nothing was sent/);
    await expect(contact.getByLabel('Name')).toHaveValue('Ada');
    expect(sent).toEqual([]);
    await expect(page).toHaveURL(/\/#contact$/);
    // No field has a name, so no submission could carry what was typed anywhere.
    expect(await contact.locator('input[name], textarea[name]').count()).toBe(0);
  });

  test('the footer: description, three recent posts, links, newsletter, social links, this year', async ({
    page,
  }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('Crypto trading education and a member app');
    const recent = footer.locator('h2', { hasText: 'Recent posts' }).locator('xpath=..').getByRole('link');
    await expect(recent).toHaveText(BLOG.posts.slice(0, 3).map((post) => post.title));
    const useful = footer.getByRole('navigation', { name: 'Useful links' });
    for (const anchor of ANCHORS) await expect(useful.locator(`a[href="#${anchor}"]`)).toHaveCount(1);
    await expect(useful.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/registration');

    const email = footer.getByRole('textbox', { name: 'Your e-mail' });
    await expect(email).toHaveAttribute('type', 'email');
    await email.fill('ada@example.com');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByRole('status')).toHaveText(
      /Nothing was sent: our newsletter has not started yet/,
    );

    for (const social of FOOTER.social) {
      const link = footer.getByRole('link', { name: social.label, exact: true });
      await expect(link).toHaveAttribute('href', social.href);
    }
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Member Platform`);
  });

  test('blog teasers: four categories, Read More to login, WebP pictures with their size set', async ({
    page,
  }) => {
    await page.goto('/');
    const carousel = page.getByRole('region', { name: 'Blog posts' });
    await expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
    const slides = carousel.getByRole('group');
    await expect(slides).toHaveCount(BLOG.posts.length);
    await expect(slides.first()).toHaveAttribute('aria-roledescription', 'slide');
    await expect(slides.first()).toHaveAttribute('aria-label', `1 of ${BLOG.posts.length}`);
    const categories = await carousel.locator('.category').allTextContents();
    expect(new Set(categories)).toEqual(new Set(['PLANNING', 'DEVELOPMENT', 'MINING', 'CHALLENGES']));
    for (const post of BLOG.posts)
      await expect(carousel.getByRole('link', { name: readMore(post.title) })).toHaveAttribute(
        'href',
        '/login',
      );
    const images = carousel.locator('img');
    for (const image of await images.all()) {
      await expect(image).toHaveAttribute('src', /\/assets\/blog-[a-z]+-400-[\w-]+\.webp$/);
      await expect(image).toHaveAttribute('srcset', /-800-[\w-]+\.webp 800w/);
      await expect(image).toHaveAttribute('width', '400');
      await expect(image).toHaveAttribute('height', '250');
      await expect(image).toHaveAttribute('loading', 'lazy');
    }
    await carousel.getByRole('link', { name: readMore(BLOG.posts[0]?.title ?? '') }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('landing page with a mouse', () => {
  test.use({ hasTouch: false, isMobile: false, viewport: { width: 1280, height: 800 } });

  test('a step’s plus button appears on hover and leads to login', async ({ page }) => {
    await page.goto('/');
    const step = page.locator('#process ol > li').nth(1);
    const plus = step.getByRole('link', { name: 'Log in to start step 2' });
    await step.scrollIntoViewIfNeeded();
    await expect(plus).toHaveCSS('opacity', '0');
    await step.hover();
    await expect(plus).toHaveCSS('opacity', '1');
    await plus.click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
