import { renderToStaticMarkup } from 'react-dom/server';
import { LandingPage } from './landing-page.tsx';

/** Where landing.html takes the prerendered body. */
export const LANDING_PLACEHOLDER = '<!--landing-body-->';

/**
 * The landing page's body as static HTML, rendered at build time (and per request by the dev server).
 * React never runs in the visitor's browser here: the page's only script is enhance.ts.
 */
export function renderLandingBody(now = new Date()): string {
  return renderToStaticMarkup(<LandingPage buildYear={now.getUTCFullYear()} />);
}
