/**
 * The contact and newsletter forms send nothing (spec 5): submitting one says so in its status line,
 * a live region, instead of pretending to send. What was typed stays in the fields.
 */
export function enhanceForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('[data-unsent-form]')) {
    const status = form.querySelector<HTMLElement>('[data-form-status]');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!status) return;
      // Emptied first, so saying it again is announced again.
      status.textContent = '';
      setTimeout(() => {
        status.textContent = status.dataset.message ?? '';
      }, 50);
    });
  }
}

/** The footer's year is the visitor's current one, not the build's. */
export function enhanceYear(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-year]'))
    element.textContent = String(new Date().getFullYear());
}
