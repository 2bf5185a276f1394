// The public landing page (spec 1 "Landing page", spec 2 "Public routes", spec 3 static teasers and
// stats, spec 9 constants). The page is prerendered at build time (src/landing); the SPA's public
// header links to the same anchors, so both take them from here.

/** Header links, in the spec's order. `top` is the document's top (HTML scrolls there by itself). */
export const LANDING_LINKS = [
  { anchor: 'top', label: 'Home' },
  { anchor: 'about', label: 'About' },
  { anchor: 'choose', label: 'Choose Us' },
  { anchor: 'process', label: 'Process' },
  { anchor: 'contact', label: 'Contact' },
  { anchor: 'blogs', label: 'Blogs' },
] as const;

/** Where a header link goes from a page other than the landing: a full load of / at that section. */
export function landingHref(anchor: string): string {
  return anchor === 'top' ? '/' : `/#${anchor}`;
}

/** Spec 9: disclaimer marquee "scroll amount 5", i.e. 5 px per 85 ms tick of the old marquee. */
export const MARQUEE_SPEED_PX_PER_S = Math.round((5 * 1000) / 85);
export const CAROUSEL_AUTOPLAY_MS = 3000;
/** Slides shown: 1 below the first breakpoint, 2 from it, 4 from the second. */
export const CAROUSEL_BREAKPOINTS_PX = [768, 1024] as const;
export const COUNTER_STEP_MS = 30;
/** Share of the stats banner that must be visible before its counters start. */
export const COUNTER_VISIBLE_THRESHOLD = 0.5;
