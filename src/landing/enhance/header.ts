/** The header's look past the scroll threshold, and the folded menu of narrow screens. */
export function enhanceHeader(): void {
  const header = document.querySelector<HTMLElement>('[data-site-header]');
  if (!header) return;

  const threshold = Number(header.dataset.scrollThreshold);
  let queued = false;
  const update = () => {
    queued = false;
    header.classList.toggle('is-scrolled', window.scrollY > threshold);
  };
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(update);
    },
    { passive: true },
  );
  update();

  // The narrow-screen menu is a native <details>: close it once a section is chosen, on Escape (focus
  // back on its toggle) and on a click elsewhere.
  const menu = header.querySelector<HTMLDetailsElement>('[data-nav-menu]');
  if (!menu) return;
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) menu.open = false;
  });
  menu.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  });
  document.addEventListener('click', (event) => {
    if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  });
}
