/** Shown while a loading flag is true (spec 2 "Dialogs"). */
export function Spinner({ show = true, label = 'Loading' }: { show?: boolean; label?: string }) {
  if (!show) return null;
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
