import { useEffect, useState } from 'react';
import { PUSH_MESSAGES } from '../../../../shared/push.ts';
import { ApiError } from '../../../lib/http.ts';
import { type PushState, pushState, turnOffPush, turnOnPush } from '../push-client.ts';

/**
 * /user/notifications: "Turn on notifications" where this browser can take push and the member has
 * not turned it on here. Permission is asked only on that press, never on load. Where push is not
 * available the notification list (live in the app) is all there is, and nothing is shown here.
 */
export function PushToggle() {
  const [state, setState] = useState<PushState | 'checking'>('checking');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    pushState()
      .then((found) => current && setState(found))
      .catch(() => current && setState('unsupported'));
    return () => {
      current = false;
    };
  }, []);

  async function run(action: () => Promise<PushState>) {
    setBusy(true);
    setError(null);
    try {
      setState(await action());
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.display : PUSH_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  }

  if (state === 'checking' || state === 'unsupported') return null;
  return (
    <section className="push-toggle stack" aria-label="Push notifications">
      {state === 'off' ? (
        <button type="button" className="button primary" disabled={busy} onClick={() => run(turnOnPush)}>
          {PUSH_MESSAGES.turnOn}
        </button>
      ) : null}
      {state === 'on' ? (
        <p className="muted">
          {PUSH_MESSAGES.subscribed}.{' '}
          <button type="button" className="button small" disabled={busy} onClick={() => run(turnOffPush)}>
            {PUSH_MESSAGES.turnOff}
          </button>
        </p>
      ) : null}
      {state === 'blocked' ? <p className="muted">{PUSH_MESSAGES.blocked}</p> : null}
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
