/**
 * Spec 9: the stats count up from 0, one every step, once at least `threshold` of the banner is visible,
 * and go back to 0 when it leaves the screen. Each stops at its own number. With reduced motion the
 * numbers stay as built: final.
 */
export function enhanceCounters(reducedMotion: boolean): void {
  const banner = document.querySelector<HTMLElement>('[data-counters]');
  if (!banner || reducedMotion || !('IntersectionObserver' in window)) return;
  const counters = [...banner.querySelectorAll<HTMLElement>('[data-counter]')].map((element) => ({
    element,
    target: Number(element.dataset.counter),
  }));
  const stepMs = Number(banner.dataset.stepMs);
  const threshold = Number(banner.dataset.threshold);
  const highest = Math.max(...counters.map((c) => c.target));

  let value = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let started = false;
  // Exposed for anyone (and the tests) who needs to know what the counters are doing.
  const setState = (state: 'idle' | 'counting' | 'done') => {
    banner.dataset.state = state;
  };
  const show = () => {
    for (const { element, target } of counters) element.textContent = String(Math.min(value, target));
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const reset = () => {
    stop();
    started = false;
    value = 0;
    show();
    setState('idle');
  };
  const start = () => {
    if (started) return;
    started = true;
    setState('counting');
    timer = setInterval(() => {
      value += 1;
      show();
      if (value < highest) return;
      stop();
      setState('done');
    }, stepMs);
  };

  reset();
  new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting && entry.intersectionRatio >= threshold) start();
        else if (!entry.isIntersecting) reset();
      }
    },
    { threshold: [0, threshold] },
  ).observe(banner);
}
