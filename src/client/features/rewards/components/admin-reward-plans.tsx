import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Reward, rewardPlanSchema } from '../../../../shared/rewards.ts';
import { formatMoney } from '../../../lib/format.ts';
import { errorText } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DeleteDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import {
  createRewardPlan,
  deleteRewardPlan,
  type RewardFields,
  refreshRewards,
  rewardPlansQuery,
  updateRewardPlan,
} from '../api.ts';

const EMPTY: RewardFields = { rank: '', business_needed: '', amount: '' };

/** /admin/reward-plans: the ladder, a form that adds or edits one rung, and delete. */
export function AdminRewardPlans() {
  const queryClient = useQueryClient();
  const query = useQuery(rewardPlansQuery);
  const [fields, setFields] = useState<RewardFields>(EMPTY);
  const [editing, setEditing] = useState<Reward | null>(null);
  const [deleting, setDeleting] = useState<Reward | null>(null);
  const [note, setNote] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { errors, setErrors, busy, submit } = useSchemaForm();

  const set = (name: keyof RewardFields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  function save(event: FormEvent) {
    event.preventDefault();
    setNote(null);
    const typed = {
      rank: fields.rank.trim(),
      business_needed: fields.business_needed.trim(),
      amount: fields.amount.trim(),
    };
    void submit(
      rewardPlanSchema,
      typed,
      async () => {
        const { message } = editing
          ? await updateRewardPlan(editing.id, typed)
          : await createRewardPlan(typed);
        await refreshRewards(queryClient);
        setNote({ tone: 'success', text: message });
        setFields(EMPTY);
        setEditing(null);
      },
      (text) => setNote({ tone: 'error', text }),
    );
  }

  async function remove(reward: Reward) {
    setDeleting(null);
    try {
      const { message } = await deleteRewardPlan(reward.id);
      setNote({ tone: 'success', text: message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    }
    await refreshRewards(queryClient);
  }

  const columns: DataColumn<Reward>[] = [
    {
      id: 'rank',
      header: 'Rank',
      cell: (r) => r.rank,
      sortValue: (r) => r.rank.toLowerCase(),
      searchText: (r) => r.rank,
      csv: (r) => r.rank,
    },
    {
      id: 'business',
      header: 'Team business needed',
      className: 'num',
      cell: (r) => formatMoney(r.business_needed),
      sortValue: (r) => Number(r.business_needed),
      csv: (r) => r.business_needed,
    },
    {
      id: 'amount',
      header: 'Reward',
      className: 'num',
      cell: (r) => formatMoney(r.amount),
      sortValue: (r) => Number(r.amount),
      csv: (r) => r.amount,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <span className="row">
          <button
            type="button"
            className="button small"
            onClick={() => {
              setEditing(r);
              setErrors({});
              setFields({ rank: r.rank, business_needed: r.business_needed, amount: r.amount });
            }}
          >
            Edit {r.rank}
          </button>
          <button type="button" className="button small danger" onClick={() => setDeleting(r)}>
            Delete {r.rank}
          </button>
        </span>
      ),
    },
  ];

  return (
    <div className="stack">
      <form
        className="card form columns"
        onSubmit={save}
        noValidate
        aria-busy={busy}
        aria-label={editing ? `Edit ${editing.rank}` : 'New reward plan'}
      >
        <h2 className="span-all">{editing ? `Edit ${editing.rank}` : 'New reward plan'}</h2>
        <FormField
          label="Rank"
          name="rank"
          maxLength={60}
          value={fields.rank}
          onChange={set('rank')}
          error={errors.rank}
          disabled={busy}
        />
        <FormField
          label="Team business needed (USD)"
          name="business_needed"
          inputMode="decimal"
          value={fields.business_needed}
          onChange={set('business_needed')}
          error={errors.business_needed}
          disabled={busy}
        />
        <FormField
          label="Reward (USD)"
          name="amount"
          inputMode="decimal"
          value={fields.amount}
          onChange={set('amount')}
          error={errors.amount}
          disabled={busy}
        />
        <div className="row span-all">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save changes' : 'Create reward plan'}
          </button>
          {editing ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => {
                setEditing(null);
                setFields(EMPTY);
                setErrors({});
              }}
            >
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {note ? (
        <p
          className={note.tone === 'success' ? 'notice' : 'error'}
          role={note.tone === 'success' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      ) : null}
      <DataTable
        caption="Reward plans"
        columns={columns}
        rows={query.data?.rewards}
        rowKey={(r) => r.id}
        status={query}
        empty="No reward plans yet."
        noun={['reward plan', 'reward plans']}
        testId="reward-plans"
        csvName="reward-plans"
        initialSort={{ id: 'business', desc: false }}
      />
      <DeleteDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => (deleting ? void remove(deleting) : undefined)}
        note="A reward someone has claimed stays in the ladder."
      />
    </div>
  );
}
