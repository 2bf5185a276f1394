import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import type { MemberRewardRow } from '../../../../shared/rewards.ts';
import { errorText } from '../../../lib/http.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { membersAndRewardsQuery, refreshRewards, sendRewardReminders } from '../api.ts';

// Reward reminders (docs/rules.md "Reward reminders"): who reached which rewards and what they left
// unclaimed, and a reminder to claim, sent as a notification. Nothing here moves money.

const COLUMNS: DataColumn<MemberRewardRow>[] = [
  {
    id: 'member',
    header: 'Member',
    cell: (m) => (
      <>
        {m.fullname}
        <br />
        <span className="muted">@{m.username}</span>
      </>
    ),
    sortValue: (m) => m.username.toLowerCase(),
    searchText: (m) => `${m.username} ${m.fullname}`,
    csv: (m) => m.username,
  },
  {
    id: 'business',
    header: 'Team business',
    className: 'num',
    cell: (m) => formatUsd(m.team_business),
    sortValue: (m) => Number(m.team_business),
    descFirst: true,
    csv: (m) => m.team_business,
  },
  {
    id: 'reached',
    header: 'Reached',
    className: 'num',
    cell: (m) => m.reached,
    sortValue: (m) => m.reached,
    descFirst: true,
    csv: (m) => String(m.reached),
  },
  {
    id: 'claimed',
    header: 'Claimed',
    className: 'num',
    cell: (m) => m.claimed,
    sortValue: (m) => m.claimed,
    descFirst: true,
    csv: (m) => String(m.claimed),
  },
  {
    id: 'unclaimed',
    header: 'Unclaimed',
    className: 'num',
    cell: (m) => (m.unclaimed ? `${m.unclaimed} (${m.unclaimed_ranks.join(', ')})` : '0'),
    sortValue: (m) => m.unclaimed,
    descFirst: true,
    csv: (m) => String(m.unclaimed),
  },
];

/** /admin/reward-transactions: "Members and rewards", with "Remind members to claim". */
export function AdminMembersRewards() {
  const queryClient = useQueryClient();
  const query = useQuery(membersAndRewardsQuery);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const waiting = query.data?.members.filter((m) => m.unclaimed > 0).length ?? 0;

  async function remind() {
    setBusy(true);
    setNote(null);
    try {
      const { message } = await sendRewardReminders(crypto.randomUUID());
      setNote({ tone: 'success', text: message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
      await refreshRewards(queryClient);
    }
  }

  return (
    <section className="stack" aria-label="Members and rewards">
      <DataTable
        caption="Members and rewards"
        columns={COLUMNS}
        rows={query.data?.members}
        rowKey={(m) => m.id}
        status={query}
        empty="No member has reached a reward yet."
        noun={['member', 'members']}
        testId="members-rewards"
        searchLabel="Search member"
        csvName="members-rewards"
        initialSort={{ id: 'business', desc: true }}
      />
      <p>
        <button
          type="button"
          className="button primary"
          disabled={busy || waiting === 0}
          onClick={remind}
          data-testid="remind-rewards"
        >
          {busy ? 'Sending...' : 'Remind members to claim'}
        </button>{' '}
        <span className="muted">
          {waiting === 0
            ? 'Nobody has a reward to claim.'
            : `${waiting} member${waiting === 1 ? ' has' : 's have'} rewards to claim: each gets one notification.`}
        </span>
      </p>
      {note ? (
        <p
          className={note.tone === 'success' ? 'notice' : 'error'}
          role={note.tone === 'success' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      ) : null}
    </section>
  );
}
