import { useSyncExternalStore } from 'react';
import { applyUpdate, isUpdateWaiting, subscribeToUpdate } from './register.ts';
import './pwa.css';

/** "A new version is available" with a Reload button, on every screen, until the member reloads. */
export function UpdatePrompt() {
  const waiting = useSyncExternalStore(subscribeToUpdate, isUpdateWaiting, () => false);
  if (!waiting) return null;
  return (
    <div className="pwa-update" role="status">
      <span>A new version is available</span>
      <button type="button" className="button small primary" onClick={applyUpdate}>
        Reload
      </button>
    </div>
  );
}
