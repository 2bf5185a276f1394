import { OFFLINE_MESSAGES } from '../../shared/offline.ts';
import { formatDateTime } from '../lib/format.ts';
import { useOffline } from '../lib/offline.ts';

/** Over the signed-in screens: says the app is offline and, when it shows copies, from when they date. */
export function OfflineNotice() {
  const { offline, copySavedAt } = useOffline();
  return (
    <div role="status" aria-live="polite">
      {offline ? (
        <p className="offline-notice">
          {copySavedAt ? OFFLINE_MESSAGES.showingCopy(formatDateTime(copySavedAt)) : OFFLINE_MESSAGES.offline}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Beside a button that moves money: while offline the button is disabled (the caller passes
 * `useOffline().offline` to it) and this says why. Nothing is kept to be sent later.
 */
export function MoneyOfflineNote() {
  const { offline } = useOffline();
  return offline ? (
    <p className="field-error" role="alert">
      {OFFLINE_MESSAGES.moneyNeedsNetwork}
    </p>
  ) : null;
}
