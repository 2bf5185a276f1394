import { expect, type Page } from '@playwright/test';

// What no public or member screen may say or draw: a promise of returns. The landing page and the
// member screens (tests/e2e/member-honesty.spec.ts) are read against the same words.

/**
 * Promise wording. "Guarantee" only when no "not", "no" or "never" comes before it: "Returns are not
 * guaranteed" is the honest sentence the plans carry.
 */
export const PROMISE_PATTERNS = [
  /(?<!\b(not|no|never)\s+(be\s+)?)guarantee/i,
  /risk[- ]free/i,
  /no risk/i,
  /(assured|certain|fixed|sure|steady|passive)\s+(profits?|returns?|income|gains?)/i,
  /\d+(\.\d+)?\s?%\s*(a |per )?(day|daily|week|weekly|month|monthly|year|yearly|returns?|profits?|roi|interest)/i,
  /(earn|make|double|grow)\s+(up to\s+)?(your\s+)?(\$|money|\d)/i,
  /\byou(?:'ll| will)\s+(earn|receive|get|make)\b/i,
  /\b(projected|expected|estimated|potential)\s+(total\s+)?(returns?|income|earnings?|profits?|payouts?)/i,
  /\b(days?\s+left|days?\s+remaining|remaining\s+days?)\b/i,
];

/** The promise patterns a text matches, as strings (an empty list when it promises nothing). */
export const promisesIn = (text: string) =>
  PROMISE_PATTERNS.filter((pattern) => pattern.test(text)).map(String);

/**
 * Every word of the page (hidden labels, titles and answers included) and every accessible name given
 * by aria-label, which a screen reader speaks though nobody sees it.
 */
export async function pageWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label]')].map((el) => el.getAttribute('aria-label'));
    return `${document.body.textContent ?? ''}\n${labels.join('\n')}`;
  });
}

/** A bar or meter filling toward a target (native, or by role). */
export async function expectNoProgressBars(page: Page): Promise<void> {
  await expect(page.locator('progress, meter, [role="progressbar"], [role="meter"]')).toHaveCount(0);
}
