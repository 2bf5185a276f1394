import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatPercent, formatUsd } from '../../../../shared/money.ts';
import type { Plan, PlanKind } from '../../../../shared/plans.ts';
import { errorText } from '../../../lib/http.ts';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DeleteDialog } from '../../../ui/dialogs.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { deletePlan, planListQuery, refreshPlans, updatePlan } from '../api.ts';
import { PlanFormDialog } from './plan-form.tsx';
import { kindLabel, statusLabel } from './plan-labels.ts';

type Actions = {
  onEdit: (plan: Plan) => void;
  onToggle: (plan: Plan) => void;
  onDelete: (plan: Plan) => void;
};

function columns(kind: PlanKind, busyId: string | null, actions: Actions): DataColumn<Plan>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      cell: (p) => p.name,
      sortValue: (p) => p.name.toLowerCase(),
      searchText: (p) => p.name,
      csv: (p) => p.name,
    },
    kind === 'plan'
      ? {
          id: 'range',
          header: 'Amount (USD)',
          cell: (p) => (
            <>
              <span className="nowrap">{formatUsd(p.min_amount)}</span> to{' '}
              <span className="nowrap">{formatUsd(p.max_amount)}</span>
            </>
          ),
          sortValue: (p) => Number(p.min_amount),
          csv: (p) => `${p.min_amount} to ${p.max_amount}`,
          className: 'num',
        }
      : {
          id: 'price',
          header: 'Price (USD)',
          cell: (p) => formatUsd(p.min_amount),
          sortValue: (p) => Number(p.min_amount),
          csv: (p) => p.min_amount,
          className: 'num',
        },
    {
      id: 'roi',
      header: 'Daily ROI %',
      cell: (p) => formatPercent(p.roi_percent),
      sortValue: (p) => Number(p.roi_percent),
      csv: (p) => p.roi_percent,
      className: 'num',
    },
    {
      id: 'duration',
      header: 'Duration',
      cell: (p) => `${p.duration_days} ${p.duration_days === 1 ? 'day' : 'days'}`,
      sortValue: (p) => p.duration_days,
      csv: (p) => p.duration_days,
      className: 'num',
    },
    {
      id: 'status',
      header: 'Status',
      cell: (p) => (
        <span className={`badge ${p.status === 'active' ? 'green' : 'grey'}`}>{statusLabel(p.status)}</span>
      ),
      sortValue: (p) => p.status,
      csv: (p) => p.status,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (p) => (
        <div className="plan-actions">
          <button type="button" className="button small" onClick={() => actions.onEdit(p)}>
            Edit
          </button>
          <button
            type="button"
            className="button small"
            onClick={() => actions.onToggle(p)}
            disabled={busyId === p.id}
          >
            {p.status === 'active' ? 'Deactivate' : 'Activate'}
          </button>
          <button type="button" className="button small danger" onClick={() => actions.onDelete(p)}>
            Delete
          </button>
        </div>
      ),
    },
  ];
}

/**
 * One list of plans (`plan`) or activation plans (`activation`): the table, "New …", and per row Edit,
 * Activate/Deactivate and Delete. Each outcome shows the server's own message.
 */
export function PlansSection({ kind }: { kind: PlanKind }) {
  const queryClient = useQueryClient();
  const query = useQuery(planListQuery(kind));
  const { banner, success, error } = useAutoClearBanner();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Plan | null>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const what = kindLabel(kind);
  const title = kind === 'plan' ? 'Plans' : 'Activation plans';

  async function run(plan: Plan, call: () => Promise<{ message: string }>) {
    setBusyId(plan.id);
    try {
      success((await call()).message);
    } catch (failure) {
      error(errorText(failure));
    } finally {
      setBusyId(null);
      await refreshPlans(queryClient);
    }
  }

  // Rebuilt each render: the buttons follow the row being changed (busyId).
  const tableColumns = columns(kind, busyId, {
    onEdit: (plan) => {
      setEditing(plan);
      setFormOpen(true);
    },
    onToggle: (plan) =>
      void run(plan, () =>
        updatePlan(kind, plan.id, { status: plan.status === 'active' ? 'inactive' : 'active' }),
      ),
    onDelete: setDeleting,
  });

  return (
    <section className="card stack" aria-labelledby={`${kind}-title`} data-testid={`${kind}-section`}>
      <div className="section-head">
        <h2 id={`${kind}-title`}>{title}</h2>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            setEditing(null);
            setFormOpen(true);
          }}
        >
          New {what}
        </button>
      </div>
      <MessageBanner banner={banner} />
      <DataTable
        caption={title}
        columns={tableColumns}
        rows={query.data}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-plan-name': p.name })}
        status={query}
        empty={kind === 'plan' ? 'No plans yet.' : 'No activation plans yet.'}
        noun={kind === 'plan' ? ['plan', 'plans'] : ['activation plan', 'activation plans']}
        testId={`${kind}-table`}
        searchLabel="Search by name"
        csvName={kind === 'plan' ? 'plans' : 'activation-plans'}
        initialSort={{ id: 'name', desc: false }}
      />
      <PlanFormDialog
        kind={kind}
        open={formOpen}
        editing={editing}
        onClose={() => setFormOpen(false)}
        onSaved={(message) => {
          setFormOpen(false);
          success(message);
        }}
      />
      <DeleteDialog
        open={deleting !== null}
        note={`A ${what} that members have invested in is not deleted: it is made inactive instead.`}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const plan = deleting;
          setDeleting(null);
          if (plan) void run(plan, () => deletePlan(kind, plan.id));
        }}
      />
    </section>
  );
}
