/**
 * The FAQ (spec 2: "FAQ items open and close individually"): a question's button opens or closes its
 * own answer and leaves the others as they are, so a reader can compare two answers side by side.
 */
export function enhanceFaq(): void {
  const root = document.querySelector<HTMLElement>('[data-faq]');
  if (!root) return;
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-faq-question]')) {
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
    if (!panel) continue;
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-expanded') !== 'true';
      button.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
    });
  }
}
