import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { type DeviceSession, SESSIONS_TEXT } from '../../../../shared/sessions.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { deviceSessionsQuery, endDeviceSession, endOtherDeviceSessions } from '../sessions-api.ts';
import '../sessions.css';

/**
 * Issue 14, item 5: where the account is signed in (device, address, when), this device first. Any
 * other device can be signed out, or all of them at once; this one signs out through Sign out.
 */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const sessions = useQuery(deviceSessionsQuery);
  const [busy, setBusy] = useState<string | null>(null);

  async function run(key: string, action: () => Promise<{ message: string }>) {
    setBusy(key);
    try {
      toast.success((await action()).message);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: deviceSessionsQuery.queryKey });
    }
  }

  const others = sessions.data?.filter((s) => !s.current) ?? [];
  return (
    <section className="card sessions-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{SESSIONS_TEXT.title}</h2>
      <p className="muted">{SESSIONS_TEXT.intro}</p>
      {sessions.isPending ? <Spinner /> : null}
      {sessions.isError ? (
        <QueryError error={sessions.error} onRetry={() => void sessions.refetch()} className="error-view" />
      ) : null}
      {sessions.data ? (
        <>
          <ul className="session-list">
            {sessions.data.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                busy={busy !== null}
                onEnd={() => run(session.id, () => endDeviceSession(session.id))}
              />
            ))}
          </ul>
          {others.length ? (
            <button
              type="button"
              className="button"
              disabled={busy !== null}
              onClick={() => run('others', endOtherDeviceSessions)}
            >
              {SESSIONS_TEXT.endOthers}
            </button>
          ) : (
            <p className="muted">{SESSIONS_TEXT.none}</p>
          )}
        </>
      ) : null}
    </section>
  );
}

function SessionRow({ session, busy, onEnd }: { session: DeviceSession; busy: boolean; onEnd: () => void }) {
  return (
    <li className="session-row" data-testid="session-row">
      <div className="session-text">
        <strong>{session.device}</strong>
        {session.current ? <span className="badge green">{SESSIONS_TEXT.thisDevice}</span> : null}
        <span className="muted">
          {SESSIONS_TEXT.signedInAt} {formatDateTime(session.created_at)}
        </span>
        {session.ip ? (
          <span className="muted">
            {SESSIONS_TEXT.address} {session.ip}
          </span>
        ) : null}
      </div>
      {session.current ? null : (
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-label={`${SESSIONS_TEXT.endOne}: ${session.device}, ${formatDateTime(session.created_at)}`}
          onClick={onEnd}
        >
          {SESSIONS_TEXT.endOne}
        </button>
      )}
    </li>
  );
}
