import { enhanceCarousel } from './enhance/carousel.ts';
import { enhanceCounters } from './enhance/counters.ts';
import { enhanceFaq } from './enhance/faq.ts';
import { enhanceForms, enhanceYear } from './enhance/forms.ts';
import { enhanceHeader } from './enhance/header.ts';
import { enhanceMarquee } from './enhance/marquee.ts';
import { registerServiceWorker } from './enhance/service-worker.ts';

// The landing page's only script: plain DOM code over the prerendered markup, no framework. Each part
// finds its element by a data attribute and leaves the page as it is when that element is missing.
// Timings and thresholds come from the markup's data attributes, written at build time from
// src/shared/landing.ts, so they have one source. After load it registers the service worker, which keeps
// the page for a visit with no network.

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;

enhanceMarquee(reducedMotion);
enhanceHeader();
enhanceCounters(reducedMotion);
enhanceFaq();
enhanceCarousel(reducedMotion);
enhanceForms();
enhanceYear();
registerServiceWorker();
