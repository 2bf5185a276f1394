import { SESSION } from '../../shared/messages.ts';
import { StatusPage } from './status-page.tsx';

/** Any uncaught error in a screen ends here instead of a blank page (spec 2). No details leak to the screen. */
export function FallbackScreen() {
  return (
    // Not a <main>: a screen inside a layout fails here, and the layout has its own.
    <div className="fallback" role="alert">
      <StatusPage title={SESSION.fallbackTitle} text={SESSION.fallbackText}>
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <a className="button" href="/">
          Home
        </a>
      </StatusPage>
    </div>
  );
}
