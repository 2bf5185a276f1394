/** The FAQ accordion: a question's button opens its answer and closes the one that was open. */
export function enhanceFaq(): void {
  const root = document.querySelector<HTMLElement>('[data-faq]');
  if (!root) return;
  const items = [...root.querySelectorAll<HTMLButtonElement>('[data-faq-question]')].flatMap((button) => {
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
    return panel ? [{ button, panel }] : [];
  });

  const setOpen = (open: (typeof items)[number] | undefined) => {
    for (const item of items) {
      const isOpen = item === open;
      item.button.setAttribute('aria-expanded', String(isOpen));
      item.panel.hidden = !isOpen;
    }
  };
  for (const item of items)
    item.button.addEventListener('click', () =>
      setOpen(item.button.getAttribute('aria-expanded') === 'true' ? undefined : item),
    );
}
