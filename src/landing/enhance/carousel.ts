/**
 * The blog carousel over a native scroll-snap strip (WAI-ARIA APG "carousel"). How many slides show is
 * up to landing.css (1, 2 or 4); this adds:
 * - autoplay: one slide on every `autoplayMs`, back to the first after the last (looping);
 * - previous / next buttons, which loop too;
 * - the rotation control, first in the carousel's focus order;
 * - pausing while the pointer is over it, stopping for good once focus enters it (until the rotation
 *   control starts it again), and resting while it is off screen or the tab is hidden;
 * - aria-live "off" while it rotates and "polite" when it does not, so a screen reader announces the
 *   slides a visitor moves to but not every automatic turn.
 * With reduced motion it does not rotate until asked to, and moves without animation.
 */
export function enhanceCarousel(reducedMotion: boolean): void {
  const root = document.querySelector<HTMLElement>('[data-carousel]');
  const track = root?.querySelector<HTMLElement>('[data-carousel-track]');
  const toggle = root?.querySelector<HTMLButtonElement>('[data-carousel-toggle]');
  const toggleLabel = root?.querySelector<HTMLElement>('[data-carousel-toggle-label]');
  const prev = root?.querySelector<HTMLButtonElement>('[data-carousel-prev]');
  const next = root?.querySelector<HTMLButtonElement>('[data-carousel-next]');
  if (!root || !track || !toggle || !toggleLabel || !prev || !next) return;
  const slides = [...track.querySelectorAll<HTMLElement>('[data-slide]')];
  const first = slides[0];
  if (!first) return;
  const autoplayMs = Number(root.dataset.autoplayMs);

  let index = 0;
  let rotating = !reducedMotion;
  let hovered = false;
  let inView = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const offsetOf = (slide: HTMLElement) => slide.offsetLeft - first.offsetLeft;
  const stepPx = () => (slides[1] ? offsetOf(slides[1]) : track.clientWidth) || 1;
  const perView = () => Math.max(1, Math.round((track.clientWidth + 1) / stepPx()));
  const lastIndex = () => Math.max(0, slides.length - perView());

  // The current slide is also in data-index, for anyone (and the tests) who needs to know it.
  const setIndex = (value: number) => {
    index = value;
    root.dataset.index = String(value);
  };
  const goTo = (target: number) => {
    setIndex(target);
    const slide = slides[target];
    if (slide) track.scrollTo({ left: offsetOf(slide), behavior: reducedMotion ? 'instant' : 'smooth' });
  };
  const forward = () => goTo(index >= lastIndex() ? 0 : index + 1);
  const backward = () => goTo(index <= 0 ? lastIndex() : index - 1);

  const sync = () => {
    const run = rotating && !hovered && inView && !document.hidden;
    if (run && timer === undefined) timer = setInterval(forward, autoplayMs);
    if (!run && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
    track.setAttribute('aria-live', rotating ? 'off' : 'polite');
    root.classList.toggle('is-rotating', rotating);
    toggleLabel.textContent = rotating ? 'Stop automatic slide show' : 'Start automatic slide show';
  };
  const setRotating = (value: boolean) => {
    rotating = value;
    sync();
  };

  toggle.addEventListener('click', () => setRotating(!rotating));
  prev.addEventListener('click', () => {
    setRotating(false);
    backward();
  });
  next.addEventListener('click', () => {
    setRotating(false);
    forward();
  });
  // Focus anywhere inside but on the rotation control itself stops the rotation (APG).
  root.addEventListener('focusin', (event) => {
    if (event.target !== toggle) setRotating(false);
  });
  root.addEventListener('pointerenter', (event) => {
    if (event.pointerType !== 'mouse') return;
    hovered = true;
    sync();
  });
  root.addEventListener('pointerleave', () => {
    hovered = false;
    sync();
  });

  // A swipe or a scroll by hand moves the strip: once it rests, the slide it rests on is the current
  // one. Browsers without the scrollend event settle after a quiet moment instead.
  const settle = () => setIndex(Math.min(lastIndex(), Math.round(track.scrollLeft / stepPx())));
  const hasScrollEnd = 'onscrollend' in document.documentElement;
  if (hasScrollEnd) track.addEventListener('scrollend', settle);
  else {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    track.addEventListener(
      'scroll',
      () => {
        clearTimeout(quiet);
        quiet = setTimeout(settle, 150);
      },
      { passive: true },
    );
  }

  new IntersectionObserver((entries) => {
    inView = entries.some((entry) => entry.isIntersecting);
    sync();
  }).observe(root);
  document.addEventListener('visibilitychange', sync);

  root.classList.add('is-ready');
  setIndex(0);
  sync();
}
