import { expect, type Page, test } from '@playwright/test';
import { BLOG } from '../../src/landing/content.ts';
import { RISK_DISCLAIMER } from '../../src/shared/messages.ts';

// Issue 5, what moves on the landing page: the stats counters, the blog carousel, the risk marquee,
// and all three with reduced motion. Timers run on Playwright's fake clock where the exact cadence
// matters (install, load, pause, then run the clock by hand).

const T0 = new Date('2026-11-02T09:00:00Z');
const slideCount = BLOG.posts.length;

/** Loads the landing page with the clock installed and paused, nothing counting or rotating yet. */
async function loadOnPausedClock(page: Page) {
  await page.clock.install({ time: T0 });
  await page.goto('/');
  await page.clock.pauseAt(new Date(T0.getTime() + 10_000));
}

/** Scrolls so that `share` of the element's height is visible at the bottom of the viewport. */
async function showShareOf(page: Page, selector: string, share: number) {
  await page.evaluate(
    ([sel, part]) => {
      const box = document.querySelector(sel)?.getBoundingClientRect();
      if (box)
        window.scrollBy({ top: box.top - (window.innerHeight - part * box.height), behavior: 'instant' });
    },
    [selector, share] as const,
  );
}

async function scrollToElement(page: Page, selector: string) {
  await page.evaluate(
    (sel) => document.querySelector(sel)?.scrollIntoView({ block: 'center', behavior: 'instant' }),
    selector,
  );
}

const counters = (page: Page) => page.locator('#banner [data-counter]').allTextContents();

/**
 * Runs the clock 100 ms at a time until the carousel turns to `index` (its timer starts when it comes
 * into view, a moment the test cannot see), so the fake time since that turn is under 100 ms.
 */
async function untilTurn(page: Page, index: string) {
  const carousel = page.locator('[data-carousel]');
  for (let ms = 0; ms <= 4000; ms += 100) {
    if ((await carousel.getAttribute('data-index')) === index) return;
    await page.clock.runFor(100);
  }
  await expect(carousel).toHaveAttribute('data-index', index);
}

/** Slides whose whole width is inside the strip's visible box, and the first of them. */
async function visibleSlides(page: Page) {
  return page.evaluate(() => {
    const track = document.querySelector('[data-carousel-track]') as HTMLElement;
    const box = track.getBoundingClientRect();
    const shown = [...track.querySelectorAll('[data-slide]')]
      .map((slide, i) => ({ i, r: slide.getBoundingClientRect() }))
      .filter(({ r }) => r.left >= box.left - 1 && r.right <= box.right + 1);
    return { count: shown.length, first: shown[0]?.i ?? -1 };
  });
}

test.describe('stats counters', () => {
  test('count up 1 every 30 ms once half the banner shows, and reset when it leaves', async ({ page }) => {
    await loadOnPausedClock(page);
    const banner = page.locator('#banner');
    expect(await counters(page)).toEqual(['0', '0', '0', '0']);

    // Less than half in view: nothing starts.
    await showShareOf(page, '#banner', 0.4);
    await page.waitForTimeout(300);
    await page.clock.runFor(300);
    await expect(banner).toHaveAttribute('data-state', 'idle');
    expect(await counters(page)).toEqual(['0', '0', '0', '0']);

    // More than half: they start from 0, one every 30 ms, each stopping at its own number.
    await showShareOf(page, '#banner', 0.7);
    await expect(banner).toHaveAttribute('data-state', 'counting');
    await page.clock.runFor(300);
    expect(await counters(page)).toEqual(['10', '10', '10', '10']);
    await page.clock.runFor(150);
    expect(await counters(page)).toEqual(['15', '15', '15', '10']);
    await page.clock.runFor(120 * 30 - 450);
    expect(await counters(page)).toEqual(['120', '85', '15', '10']);
    await expect(banner).toHaveAttribute('data-state', 'done');
    // The screen reader's copy is the final number throughout.
    await expect(banner.locator('.stat-value').first()).toHaveText('120120');

    // Out of view: back to 0; in view again: counting again from 0.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expect(banner).toHaveAttribute('data-state', 'idle');
    expect(await counters(page)).toEqual(['0', '0', '0', '0']);
    await scrollToElement(page, '#banner');
    await expect(banner).toHaveAttribute('data-state', 'counting');
    await page.clock.runFor(60);
    expect(await counters(page)).toEqual(['2', '2', '2', '2']);
  });
});

test.describe('blog carousel', () => {
  for (const { width, shown } of [
    { width: 375, shown: 1 },
    { width: 767, shown: 1 },
    { width: 768, shown: 2 },
    { width: 1023, shown: 2 },
    { width: 1024, shown: 4 },
    { width: 1366, shown: 4 },
  ]) {
    test(`shows ${shown} slide${shown > 1 ? 's' : ''} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await scrollToElement(page, '#blogs');
      expect(await visibleSlides(page)).toEqual({ count: shown, first: 0 });
    });
  }

  test('turns every 3 s and loops from the last position back to the first', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await loadOnPausedClock(page);
    const carousel = page.locator('[data-carousel]');
    await expect(page.locator('#blog-track')).toHaveAttribute('aria-live', 'off');
    await scrollToElement(page, '#blogs');
    await untilTurn(page, '1');
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 4, first: 1 });
    // The next turn comes 3 s after the last one, not before.
    await page.clock.runFor(2800);
    await expect(carousel).toHaveAttribute('data-index', '1');
    await page.clock.runFor(200);
    await expect(carousel).toHaveAttribute('data-index', '2');
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 4, first: slideCount - 4 });
    // Four slides show from the third on: the last one is in view, so the next turn is the first.
    await page.clock.runFor(3000);
    await expect(carousel).toHaveAttribute('data-index', '0');
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 4, first: 0 });
  });

  test('on a phone it turns one slide at a time through all of them, then loops', async ({ page }) => {
    await loadOnPausedClock(page);
    const carousel = page.locator('[data-carousel]');
    await scrollToElement(page, '#blogs');
    await untilTurn(page, '1');
    for (let i = 2; i <= slideCount; i++) {
      await expect.poll(() => visibleSlides(page)).toEqual({ count: 1, first: i - 1 });
      await page.clock.runFor(3000);
      await expect(carousel).toHaveAttribute('data-index', String(i % slideCount));
    }
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 1, first: 0 });
  });

  test('the rotation control stops and restarts it; previous and next loop', async ({ page }) => {
    await loadOnPausedClock(page);
    const carousel = page.getByRole('region', { name: 'Blog posts' });
    const track = page.locator('#blog-track');
    await scrollToElement(page, '#blogs');
    const stop = carousel.getByRole('button', { name: 'Stop automatic slide show' });
    await stop.click();
    await expect(track).toHaveAttribute('aria-live', 'polite');
    const start = carousel.getByRole('button', { name: 'Start automatic slide show' });
    await expect(start).toBeVisible();
    await page.clock.runFor(9000);
    await expect(carousel).toHaveAttribute('data-index', '0');

    await carousel.getByRole('button', { name: 'Previous posts' }).click();
    await expect(carousel).toHaveAttribute('data-index', String(slideCount - 1));
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 1, first: slideCount - 1 });
    await carousel.getByRole('button', { name: 'Next posts' }).click();
    await expect(carousel).toHaveAttribute('data-index', '0');
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 1, first: 0 });
    await carousel.getByRole('button', { name: 'Next posts' }).click();
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 1, first: 1 });

    await start.click();
    await expect(track).toHaveAttribute('aria-live', 'off');
    // Playwright's clicks come from a mouse, which now rests over the carousel and pauses it.
    await page.mouse.move(5, 5);
    await page.clock.runFor(3000);
    await expect(carousel).toHaveAttribute('data-index', '2');
  });

  test('keyboard focus inside stops the rotation for good', async ({ page }) => {
    await loadOnPausedClock(page);
    const carousel = page.locator('[data-carousel]');
    await scrollToElement(page, '#blogs');
    await page.locator('[data-carousel] .read-more').first().focus();
    await expect(page.locator('#blog-track')).toHaveAttribute('aria-live', 'polite');
    // Tab on to the next post: the strip follows focus to it, and then stays there.
    await page.keyboard.press('Tab');
    await expect(carousel).toHaveAttribute('data-index', '1');
    await expect.poll(() => visibleSlides(page)).toEqual({ count: 1, first: 1 });
    await page.clock.runFor(9000);
    await expect(carousel).toHaveAttribute('data-index', '1');
    await expect(page.locator('#blog-track')).toHaveAttribute('aria-live', 'polite');
  });
});

test.describe('blog carousel with a mouse', () => {
  test.use({ hasTouch: false, isMobile: false, viewport: { width: 1280, height: 800 } });

  test('pauses while the pointer is over it', async ({ page }) => {
    await loadOnPausedClock(page);
    const carousel = page.locator('[data-carousel]');
    await scrollToElement(page, '#blogs');
    await page.locator('#blog-track').hover();
    await page.clock.runFor(7000);
    await expect(carousel).toHaveAttribute('data-index', '0');
    await page.mouse.move(5, 5);
    await page.clock.runFor(3000);
    await expect(carousel).toHaveAttribute('data-index', '1');
  });
});

test.describe('risk marquee', () => {
  const offset = (page: Page) =>
    page
      .locator('[data-marquee-track]')
      .evaluate((track) => new DOMMatrix(getComputedStyle(track).transform).m41);

  test('scrolls at the spec’s speed, and its button pauses and resumes it', async ({ page }) => {
    await page.goto('/');
    const bar = page.getByRole('complementary', { name: 'Risk warning' });
    // 5 px per 85 ms tick of the old marquee: one copy's width takes width / 59 seconds.
    const { width, seconds } = await page.locator('[data-marquee-track]').evaluate((track) => ({
      width: (track.firstElementChild as HTMLElement).getBoundingClientRect().width,
      seconds: Number.parseFloat(getComputedStyle(track).animationDuration),
    }));
    expect(Math.abs(width / seconds - 59)).toBeLessThan(1);

    // The bar pauses under a resting pointer. A phone has none, but the headless browser's pointer starts
    // at the page's top-left corner, over the bar: moved below it, as the pause below does.
    await page.mouse.move(5, 400);
    const before = await offset(page);
    await page.waitForTimeout(400);
    expect(await offset(page)).not.toBe(before);

    const pause = bar.getByRole('button', { name: 'Pause the scrolling risk warning' });
    await pause.click();
    await expect(pause).toHaveAttribute('aria-pressed', 'true');
    await page.mouse.move(5, 400);
    await pause.blur();
    const paused = await offset(page);
    await page.waitForTimeout(400);
    expect(await offset(page)).toBe(paused);
    await pause.click();
    await expect(pause).toHaveAttribute('aria-pressed', 'false');
    await pause.blur();
    await page.mouse.move(5, 400);
    await page.waitForTimeout(400);
    expect(await offset(page)).not.toBe(paused);
  });
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('nothing moves: the warning wraps, the counters show their numbers, the carousel waits', async ({
    page,
  }) => {
    await loadOnPausedClock(page);
    const note = page.getByRole('note');
    await expect(note.locator('p').first()).toHaveText(RISK_DISCLAIMER);
    await expect(page.locator('[data-marquee-track]')).toHaveCSS('animation-name', 'none');
    await expect(page.locator('.marquee-copy')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Pause the scrolling risk warning' })).toBeHidden();
    // The whole warning is on screen, wrapped, not scrolled past.
    const box = await note.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0)).toBe(true);

    await scrollToElement(page, '#banner');
    await page.clock.runFor(5000);
    expect(await counters(page)).toEqual(['120', '85', '15', '10']);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.clock.runFor(1000);
    expect(await counters(page)).toEqual(['120', '85', '15', '10']);

    await scrollToElement(page, '#blogs');
    const carousel = page.getByRole('region', { name: 'Blog posts' });
    await expect(carousel.getByRole('button', { name: 'Start automatic slide show' })).toBeVisible();
    await expect(page.locator('#blog-track')).toHaveAttribute('aria-live', 'polite');
    await page.clock.runFor(9000);
    await expect(page.locator('[data-carousel]')).toHaveAttribute('data-index', '0');
  });
});
