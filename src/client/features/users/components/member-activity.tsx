import { useState } from 'react';
import type { MemberLedgerEntry, MemberSessionInfo } from '../../../../shared/users.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { endMemberSessions } from '../api.ts';

const PHASES: Record<MemberLedgerEntry['phase'], string> = {
  single: 'Completed',
  pending: 'Held for review',
  post: 'Hold released to recipient',
  void: 'Hold returned',
};

const KINDS: Record<string, string> = {
  adjustment: 'Adjustment',
  transfer: 'Transfer',
  deposit: 'Deposit',
};

/** The member's newest ledger transfers, each side named (their own wallet, another member's, the platform's). */
export function MemberLedger({ transfers }: { transfers: MemberLedgerEntry[] }) {
  return (
    <section className="card" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Recent ledger transfers</h2>
      {transfers.length === 0 ? (
        <p className="muted">No money has moved in or out of this member’s wallets.</p>
      ) : (
        <div className="table-scroll">
          <table className="table audit-table" data-testid="member-ledger">
            <caption className="visually-hidden">Recent ledger transfers</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Description</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {transfers.map((t) => (
                <tr key={t.id}>
                  <td className="nowrap">{formatDateTime(t.created_at)}</td>
                  <td>{KINDS[t.kind] ?? t.kind}</td>
                  <td
                    className={
                      t.direction === 'in' ? 'amount-in' : t.direction === 'out' ? 'amount-out' : 'nowrap'
                    }
                  >
                    {t.direction === 'in' ? '+' : t.direction === 'out' ? '-' : ''}
                    {formatMoney(t.amount)}
                  </td>
                  <td>{t.from_account}</td>
                  <td>{t.to_account}</td>
                  <td>{t.description ?? '—'}</td>
                  <td>{PHASES[t.phase]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Where the member is signed in (when, until when, from which address and browser; never a token),
 * and one button that ends every session at once.
 */
export function MemberSessions({
  memberId,
  sessions,
  onEnded,
  onFailed,
}: {
  memberId: string;
  sessions: MemberSessionInfo[];
  onEnded: (message: string) => void;
  onFailed: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  async function endAll() {
    setBusy(true);
    try {
      onEnded((await endMemberSessions(memberId)).message);
    } catch (error) {
      onFailed(errorText(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card stack" aria-labelledby="sessions-title">
      <div className="page-head">
        <h2 id="sessions-title">Sessions</h2>
        <button
          type="button"
          className="button danger small"
          onClick={endAll}
          disabled={busy || sessions.length === 0}
        >
          End all sessions
        </button>
      </div>
      {sessions.length === 0 ? (
        <p className="muted" data-testid="no-sessions">
          Not signed in anywhere.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table audit-table" data-testid="member-sessions">
            <caption className="visually-hidden">Live sessions</caption>
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">Expires</th>
                <th scope="col">Address</th>
                <th scope="col">Browser</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={`${s.created_at}-${s.expires_at}-${s.user_agent ?? ''}`}>
                  <td className="nowrap">{formatDateTime(s.created_at)}</td>
                  <td className="nowrap">{formatDateTime(s.expires_at)}</td>
                  <td>{s.ip ?? '—'}</td>
                  <td>{s.user_agent ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">
        The last time a session was used is not recorded; the member’s last sign-in is shown with the details.
      </p>
    </section>
  );
}
