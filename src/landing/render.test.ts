import { describe, expect, it } from 'vitest';
import { HEADER_SCROLL_THRESHOLD_PX } from '../shared/constants.ts';
import {
  CAROUSEL_AUTOPLAY_MS,
  COUNTER_STEP_MS,
  COUNTER_VISIBLE_THRESHOLD,
  LANDING_LINKS,
} from '../shared/landing.ts';
import { RISK_DISCLAIMER } from '../shared/messages.ts';
import { renderLandingBody } from './render.tsx';

// The prerendered body, as the build writes it into dist/landing.html.
const html = renderLandingBody(new Date('2031-05-01T00:00:00Z'));

describe('the prerendered landing page', () => {
  it('has every anchor the header and the spec name', () => {
    for (const id of ['about', 'choose', 'banner', 'process', 'blogs', 'contact'])
      expect(html).toContain(` id="${id}"`);
    for (const link of LANDING_LINKS) expect(html).toContain(`href="#${link.anchor}"`);
  });

  it('carries the risk warning and nothing the CSP would have to allow', () => {
    expect(html).toContain(RISK_DISCLAIMER.replaceAll("'", '&#x27;'));
    expect(html).not.toMatch(/<script|<style|\sstyle="|\son[a-z]+="/);
  });

  it('hands the enhance script the spec’s timings through data attributes', () => {
    expect(html).toContain(`data-scroll-threshold="${HEADER_SCROLL_THRESHOLD_PX}"`);
    expect(html).toContain(`data-autoplay-ms="${CAROUSEL_AUTOPLAY_MS}"`);
    expect(html).toContain(`data-step-ms="${COUNTER_STEP_MS}"`);
    expect(html).toContain(`data-threshold="${COUNTER_VISIBLE_THRESHOLD}"`);
    expect(html).toContain('data-speed="59"');
  });

  it('shows the final numbers until the script counts them, and the build’s year', () => {
    for (const value of [120, 85, 15, 10]) expect(html).toContain(`data-counter="${value}"`);
    expect(html).toContain('<span data-year="true">2031</span>');
  });

  it('promises nothing the product does not have: no lessons, no articles in the member area', () => {
    expect(html).not.toMatch(/\blessons?\b/i);
    expect(html).not.toMatch(/articles? (are|is) in the member area/i);
  });
});
