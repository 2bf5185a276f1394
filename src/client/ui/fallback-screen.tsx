import { SESSION } from '../../shared/messages.ts';
import { OFFLINE_MESSAGES } from '../../shared/offline.ts';
import { useOffline } from '../lib/offline.ts';
import { StatusPage } from './status-page.tsx';

/** Any uncaught error in a screen ends here instead of a blank page (spec 2). No details leak to the screen. */
export function FallbackScreen() {
  // Offline, the likely cause is a screen never opened online: its code was never downloaded.
  const { offline } = useOffline();
  return (
    // Not a <main>: a screen inside a layout fails here, and the layout has its own.
    <div className="fallback" role="alert">
      <StatusPage
        title={SESSION.fallbackTitle}
        text={offline ? OFFLINE_MESSAGES.screenNotSaved : SESSION.fallbackText}
      >
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
