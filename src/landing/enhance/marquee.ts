/** The risk warning scrolls at the spec's speed; its button pauses and resumes it. */
export function enhanceMarquee(reducedMotion: boolean): void {
  const bar = document.querySelector<HTMLElement>('[data-marquee]');
  const track = bar?.querySelector<HTMLElement>('[data-marquee-track]');
  const toggle = bar?.querySelector<HTMLButtonElement>('[data-marquee-toggle]');
  if (!bar || !track || !toggle || reducedMotion) return;

  // One copy's width at the spec's speed; the animation moves the track by exactly one copy.
  const speed = Number(bar.dataset.speed);
  const copyWidth = track.firstElementChild?.getBoundingClientRect().width ?? 0;
  if (speed > 0 && copyWidth > 0) track.style.animationDuration = `${(copyWidth / speed).toFixed(1)}s`;

  toggle.addEventListener('click', () => {
    const paused = toggle.getAttribute('aria-pressed') !== 'true';
    toggle.setAttribute('aria-pressed', String(paused));
    bar.classList.toggle('is-paused', paused);
  });
  bar.classList.add('is-ready');
}
