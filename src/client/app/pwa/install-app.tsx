import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  canInstall,
  IOS_HINT_SEEN_KEY,
  isIosSafariInBrowser,
  promptInstall,
  subscribeToInstall,
} from './install.ts';
import './pwa.css';

function readHintSeen(): boolean {
  try {
    return localStorage.getItem(IOS_HINT_SEEN_KEY) === '1';
  } catch {
    return true;
  }
}

function rememberHintSeen(): void {
  try {
    localStorage.setItem(IOS_HINT_SEEN_KEY, '1');
  } catch {
    // Private browsing: the hint simply shows again next time.
  }
}

/** "Install app", once the browser offers installation (for the member header). */
export function InstallApp() {
  const installable = useSyncExternalStore(subscribeToInstall, canInstall, () => false);
  if (!installable) return null;
  return (
    <button type="button" className="button small pwa-install" onClick={() => void promptInstall()}>
      Install app
    </button>
  );
}

/** On iOS Safari, a one-time hint to add the app to the home screen (remembered once shown). */
export function IosInstallHint() {
  const [showHint, setShowHint] = useState(() => !readHintSeen() && isIosSafariInBrowser());
  // Shown once: the next visit no longer shows it, even if it was not dismissed.
  useEffect(() => {
    if (showHint) rememberHintSeen();
  }, [showHint]);
  if (!showHint) return null;
  return (
    <div className="pwa-ios-hint" role="note">
      <span>To install this app, tap the Share button, then “Add to Home Screen”.</span>
      <button type="button" className="button small" onClick={() => setShowHint(false)}>
        Got it
      </button>
    </div>
  );
}
