import { useState } from 'react';
import { kindLabel } from '../../../../shared/ledger-kinds.ts';
import { formatUsd } from '../../../../shared/money.ts';
import type { MemberLedgerEntry, MemberSessionInfo } from '../../../../shared/users.ts';
import { errorText } from '../../../lib/http.ts';
import { LongWordBreaks } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DateTime } from '../../../ui/date-time.tsx';
import { endMemberSessions } from '../api.ts';

/** These tables show what the profile already loaded: never loading, never failed on their own. */

const PHASES: Record<MemberLedgerEntry['phase'], string> = {
  single: 'Completed',
  pending: 'Held for review',
  post: 'Hold released to recipient',
  void: 'Hold returned',
};

const LEDGER_COLUMNS: DataColumn<MemberLedgerEntry>[] = [
  {
    id: 'date',
    header: 'Date',
    sortValue: (t) => t.created_at,
    descFirst: true,
    cell: (t) => <DateTime iso={t.created_at} />,
  },
  { id: 'kind', header: 'Kind', cell: (t) => kindLabel(t.kind) },
  {
    id: 'amount',
    header: 'Amount',
    className: 'num',
    cell: (t) => (
      <span className={t.direction === 'in' ? 'amount-in' : t.direction === 'out' ? 'amount-out' : undefined}>
        {t.direction === 'in'
          ? formatUsd(t.amount, 'always')
          : t.direction === 'out'
            ? formatUsd(`-${t.amount}`)
            : formatUsd(t.amount)}
      </span>
    ),
  },
  {
    id: 'accounts',
    header: 'From and to',
    cell: (t) => (
      <>
        <LongWordBreaks text={t.from_account} />
        <br />
        <span className="muted">to</span> <LongWordBreaks text={t.to_account} />
      </>
    ),
  },
  {
    // A withdrawal's description holds its whole payout address: it wraps at its joints, never past the box.
    id: 'description',
    header: 'Description',
    cell: (t) => (t.description ? <LongWordBreaks text={t.description} /> : '—'),
  },
  { id: 'state', header: 'State', cell: (t) => PHASES[t.phase] },
];

/** The member's newest ledger transfers, each side named (their own wallet, another member's, the platform's). */
export function MemberLedger({ transfers }: { transfers: MemberLedgerEntry[] }) {
  return (
    <section className="card" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Recent ledger transfers</h2>
      <DataTable
        caption="Recent ledger transfers"
        columns={LEDGER_COLUMNS}
        rows={transfers}
        rowKey={(t) => t.id}
        empty="No money has moved in or out of this member’s wallets."
        noun={['transfer', 'transfers']}
        testId="member-ledger"
      />
    </section>
  );
}

const SESSION_COLUMNS: DataColumn<MemberSessionInfo>[] = [
  { id: 'signed-in', header: 'Signed in', cell: (s) => <DateTime iso={s.created_at} /> },
  { id: 'expires', header: 'Expires', cell: (s) => <DateTime iso={s.expires_at} /> },
  { id: 'ip', header: 'Address', className: 'nowrap', cell: (s) => s.ip ?? '—' },
  {
    id: 'device',
    header: 'Device',
    // The whole user agent stays a hover away for support; the column shows what a person reads.
    cell: (s) => <span title={s.user_agent ?? undefined}>{s.device}</span>,
  },
];

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
      <DataTable
        caption="Live sessions"
        columns={SESSION_COLUMNS}
        rows={sessions}
        rowKey={(s) => `${s.created_at}-${s.expires_at}-${s.user_agent ?? ''}`}
        empty={<span data-testid="no-sessions">Not signed in anywhere.</span>}
        noun={['session', 'sessions']}
        testId="member-sessions"
      />
      <p className="muted">
        The last time a session was used is not recorded; the member’s last sign-in is shown with the details.
      </p>
    </section>
  );
}
