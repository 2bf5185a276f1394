import { errorText } from '../lib/http.ts';

/** What a screen shows when its data could not be loaded: the server's message and a way to ask again. */
export function QueryError({
  error,
  onRetry,
  className = 'card error-view',
}: {
  error: unknown;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div className={className} role="alert">
      <p>{errorText(error)}</p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
