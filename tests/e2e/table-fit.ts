import { expect, type Locator } from '@playwright/test';

// An admin table fits its box on a 1366 px laptop. For every shared table (and every report table) in the
// scope: its scroll container does not scroll sideways, no cell is clipped, every header label is on
// one line, and no word of any cell is broken across two lines (an e-mail may wrap only at the joints
// ui/break-points.tsx marks, each part being a text of its own). Only the audit log's raw stored values
// (a <pre> behind "Details") may wrap anywhere: they are machine text, shown for the record.

type Misfit = { table: string; problem: string };

export async function expectTablesFit(scope: Locator): Promise<void> {
  // The shared table's scroller, and a report's (a table of its own beside its chart).
  const scrollers = scope.locator('.data-table .table-scroll, .table-scroll.report-table');
  await expect(scrollers.first()).toBeVisible();
  const misfits: Misfit[] = await scrollers.evaluateAll((elements) => {
    const found: { table: string; problem: string }[] = [];
    /** How many lines a piece of text is laid out on: a box entirely below the line so far starts another. */
    const lines = (range: Range) => {
      const boxes = [...range.getClientRects()]
        .filter((r) => r.width > 0 && r.height > 0)
        .sort((x, y) => x.top - y.top);
      let count = 0;
      let bottom = Number.NEGATIVE_INFINITY;
      for (const box of boxes) {
        if (box.top >= bottom - 1) count += 1;
        bottom = Math.max(bottom, box.bottom);
      }
      return count;
    };
    for (const scroller of elements) {
      const table = scroller.querySelector('caption')?.textContent ?? '(table)';
      if (scroller.scrollWidth > scroller.clientWidth)
        found.push({ table, problem: `scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}` });
      for (const cell of scroller.querySelectorAll<HTMLElement>('th, td')) {
        const label = (cell.textContent ?? '').trim().slice(0, 40);
        if (cell.scrollWidth > cell.clientWidth)
          found.push({
            table,
            problem: `cell clipped: "${label}" ${cell.scrollWidth} > ${cell.clientWidth}`,
          });
        if (cell.tagName === 'TH') {
          const range = document.createRange();
          range.selectNodeContents(cell);
          if (lines(range) > 1) found.push({ table, problem: `header on two lines: "${label}"` });
        }
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          // Text not shown (a closed <details>) is not laid out; raw stored JSON (<pre>) may wrap anywhere.
          if (!parent?.checkVisibility() || parent.closest('pre')) continue;
          const text = node.textContent ?? '';
          for (const match of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            if (lines(range) > 1) found.push({ table, problem: `word broken: "${match[0]}"` });
          }
        }
      }
    }
    return found;
  });
  expect(misfits).toEqual([]);
  const page = scope.page();
  const pageWidth = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(pageWidth[0], 'the page does not scroll sideways').toBeLessThanOrEqual(pageWidth[1] ?? 0);
}

/**
 * Every stat tile in the scope fits its box on a 1366 px laptop: its figure is on one line and not
 * clipped (a "$1,234,567.89" never wraps into pieces or runs past the tile), and no word of its label
 * is broken across two lines.
 */
export async function expectStatTilesFit(scope: Locator): Promise<void> {
  const tiles = scope.locator('.stat');
  await expect(tiles.first()).toBeVisible();
  const misfits: string[] = await tiles.evaluateAll((elements) => {
    const found: string[] = [];
    const lines = (range: Range) => {
      const boxes = [...range.getClientRects()]
        .filter((r) => r.width > 0 && r.height > 0)
        .sort((x, y) => x.top - y.top);
      let count = 0;
      let bottom = Number.NEGATIVE_INFINITY;
      for (const box of boxes) {
        if (box.top >= bottom - 1) count += 1;
        bottom = Math.max(bottom, box.bottom);
      }
      return count;
    };
    for (const tile of elements) {
      const figure = tile.querySelector('dd');
      const label = tile.querySelector('dt')?.textContent?.trim() ?? '(tile)';
      if (!figure) continue;
      const range = document.createRange();
      range.selectNodeContents(figure);
      if (lines(range) > 1) found.push(`${label}: figure on ${lines(range)} lines`);
      if (figure.scrollWidth > figure.clientWidth || tile.scrollWidth > tile.clientWidth)
        found.push(`${label}: figure clipped (${figure.scrollWidth} > ${figure.clientWidth})`);
      const box = figure.getBoundingClientRect();
      const text = range.getBoundingClientRect();
      if (text.right > box.right + 0.5) found.push(`${label}: figure runs past its tile`);
      const dt = tile.querySelector('dt');
      if (dt) {
        const walker = document.createTreeWalker(dt, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
            const word = document.createRange();
            word.setStart(node, match.index);
            word.setEnd(node, match.index + match[0].length);
            if (lines(word) > 1) found.push(`${label}: word broken: "${match[0]}"`);
          }
        }
      }
    }
    return found;
  });
  expect(misfits).toEqual([]);
}
