import { formatCents } from '../../../shared/money.ts';
import {
  type ActPlanInput,
  type ActPlanUpdate,
  formatPercent,
  type LevelSettings,
  PLAN_MESSAGES,
  type Plan,
  type PlanInput,
  type PlanKind,
  type PlanUpdate,
} from '../../../shared/plans.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { PlanTable } from '../../db/schema.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import {
  deletePlan,
  findPlan,
  hasInvestments,
  insertPlan,
  levelPercents,
  listPlans,
  replaceLevelPercents,
  updatePlan,
} from './plans.repository.ts';

// RULES.md "Plans, top-ups and activation": admins create and change plans (audited); members see and
// buy only active ones. A plan with investments is never deleted: DELETE makes it inactive.

export function toPlan(row: PlanTable): Plan {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    min_amount: formatCents(Number(row.min_amount_cents)),
    max_amount: formatCents(Number(row.max_amount_cents)),
    roi_percent: formatPercent(Number(row.roi_bp)),
    duration_days: Number(row.duration_days),
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const isAdmin = (asker: SessionUser) => asker.user.role === 'admin';
function assertAdmin(asker: SessionUser) {
  if (!isAdmin(asker)) throw forbidden();
}
const notFoundOf = (kind: PlanKind) =>
  notFound(kind === 'plan' ? PLAN_MESSAGES.notFound : PLAN_MESSAGES.actNotFound);

/** The plan as the asker may see it: a member never sees an inactive plan (404, as for no plan). */
async function visiblePlan(db: Db, asker: SessionUser, kind: PlanKind, id: string): Promise<PlanTable> {
  const row = await findPlan(db, id);
  if (!row || row.kind !== kind || (!isAdmin(asker) && row.status !== 'active')) throw notFoundOf(kind);
  return row;
}

/** A plan's or an activation plan's fields as the table keeps them, from either input shape. */
type Fields = Pick<
  PlanTable,
  'name' | 'min_amount_cents' | 'max_amount_cents' | 'roi_bp' | 'duration_days' | 'status'
>;

function fieldsOf(kind: PlanKind, input: PlanInput | ActPlanInput): Fields {
  const [min, max] =
    kind === 'plan'
      ? [(input as PlanInput).min_amount, (input as PlanInput).max_amount]
      : [(input as ActPlanInput).amount, (input as ActPlanInput).amount];
  return {
    name: input.name,
    min_amount_cents: min,
    max_amount_cents: max,
    roi_bp: input.roi_percent,
    duration_days: input.duration_days,
    status: input.status,
  };
}

function changesOf(kind: PlanKind, input: PlanUpdate | ActPlanUpdate): Partial<Fields> {
  const changes: Partial<Fields> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.roi_percent !== undefined) changes.roi_bp = input.roi_percent;
  if (input.duration_days !== undefined) changes.duration_days = input.duration_days;
  if (input.status !== undefined) changes.status = input.status;
  if (kind === 'plan') {
    const plan = input as PlanUpdate;
    if (plan.min_amount !== undefined) changes.min_amount_cents = plan.min_amount;
    if (plan.max_amount !== undefined) changes.max_amount_cents = plan.max_amount;
  } else {
    const act = input as ActPlanUpdate;
    if (act.amount !== undefined) {
      changes.min_amount_cents = act.amount;
      changes.max_amount_cents = act.amount;
    }
  }
  return changes;
}

const auditTarget = (kind: PlanKind) => (kind === 'plan' ? 'plan' : 'actplan');

export async function createPlan(
  db: Db,
  asker: SessionUser,
  kind: PlanKind,
  input: PlanInput | ActPlanInput,
) {
  assertAdmin(asker);
  const now = new Date().toISOString();
  const row: PlanTable = {
    id: newId(),
    kind,
    ...fieldsOf(kind, input),
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await insertPlan(trx, row);
    await insertAudit(trx, {
      actorId: asker.user.id,
      action: `${auditTarget(kind)}.create`,
      targetType: auditTarget(kind),
      targetId: row.id,
      after: toPlan(row),
    });
  });
  return { message: kind === 'plan' ? PLAN_MESSAGES.created : PLAN_MESSAGES.actCreated, plan: toPlan(row) };
}

export async function plansFor(db: Db, asker: SessionUser, kind: PlanKind): Promise<Plan[]> {
  return (await listPlans(db, kind, !isAdmin(asker))).map(toPlan);
}

export async function planFor(db: Db, asker: SessionUser, kind: PlanKind, id: string): Promise<Plan> {
  return toPlan(await visiblePlan(db, asker, kind, id));
}

/**
 * An edit changes the plan for purchases from now on; an investment already made keeps the ROI rate
 * and duration it was bought with (copied onto the top-up).
 */
export async function changePlan(
  db: Db,
  asker: SessionUser,
  kind: PlanKind,
  id: string,
  input: PlanUpdate | ActPlanUpdate,
) {
  assertAdmin(asker);
  const changes = changesOf(kind, input);
  if (Object.keys(changes).length === 0)
    throw badRequest([{ field: 'name', message: PLAN_MESSAGES.nothingToChange }]);
  const after = await db.transaction().execute(async (trx) => {
    const before = await visiblePlan(trx, asker, kind, id);
    const merged: PlanTable = { ...before, ...changes, updated_at: new Date().toISOString() };
    if (Number(merged.min_amount_cents) > Number(merged.max_amount_cents))
      throw badRequest([{ field: 'max_amount', message: PLAN_MESSAGES.minAboveMax }]);
    await updatePlan(trx, id, { ...changes, updated_at: merged.updated_at });
    await insertAudit(trx, {
      actorId: asker.user.id,
      action: `${auditTarget(kind)}.update`,
      targetType: auditTarget(kind),
      targetId: id,
      before: toPlan(before),
      after: toPlan(merged),
    });
    return merged;
  });
  return { message: kind === 'plan' ? PLAN_MESSAGES.updated : PLAN_MESSAGES.actUpdated, plan: toPlan(after) };
}

const isForeignKeyViolation = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

/**
 * DELETE: a plan nobody bought is deleted; one with investments is made inactive instead (200 with the
 * plan). A top-up committed between the look and the delete makes the delete fail on its foreign key:
 * then it is made inactive too.
 */
export async function removePlan(db: Db, asker: SessionUser, kind: PlanKind, id: string) {
  assertAdmin(asker);
  const deactivate = () =>
    db.transaction().execute(async (trx) => {
      const before = await visiblePlan(trx, asker, kind, id);
      const after: PlanTable = { ...before, status: 'inactive', updated_at: new Date().toISOString() };
      await updatePlan(trx, id, { status: 'inactive', updated_at: after.updated_at });
      await insertAudit(trx, {
        actorId: asker.user.id,
        action: `${auditTarget(kind)}.deactivate`,
        targetType: auditTarget(kind),
        targetId: id,
        before: toPlan(before),
        after: toPlan(after),
      });
      return {
        message: kind === 'plan' ? PLAN_MESSAGES.deactivated : PLAN_MESSAGES.actDeactivated,
        plan: toPlan(after),
      };
    });
  if (await hasInvestments(db, (await visiblePlan(db, asker, kind, id)).id)) return deactivate();
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await visiblePlan(trx, asker, kind, id);
      await deletePlan(trx, id);
      await insertAudit(trx, {
        actorId: asker.user.id,
        action: `${auditTarget(kind)}.delete`,
        targetType: auditTarget(kind),
        targetId: id,
        before: toPlan(before),
      });
      return { message: kind === 'plan' ? PLAN_MESSAGES.deleted : PLAN_MESSAGES.actDeleted };
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) return deactivate();
    throw error;
  }
}

const levelKind = { active: 'activation', invest: 'roi' } as const;

export async function levelSettings(db: Db): Promise<LevelSettings> {
  const [active, invest] = await Promise.all([levelPercents(db, 'activation'), levelPercents(db, 'roi')]);
  return { active_levels: active.map(formatPercent), invest_levels: invest.map(formatPercent) };
}

/** Replaces the whole list, level 1 first (audited). */
export async function setLevelPercents(
  db: Db,
  asker: SessionUser,
  which: keyof typeof levelKind,
  percents: number[],
) {
  assertAdmin(asker);
  const kind = levelKind[which];
  await db.transaction().execute(async (trx) => {
    const before = await levelPercents(trx, kind);
    await replaceLevelPercents(trx, kind, percents);
    await insertAudit(trx, {
      actorId: asker.user.id,
      action: `levels.${kind}`,
      targetType: 'settings',
      targetId: `levels:${kind}`,
      before: { percents: before.map(formatPercent) },
      after: { percents: percents.map(formatPercent) },
    });
  });
  return {
    message: which === 'active' ? PLAN_MESSAGES.activationLevelsSaved : PLAN_MESSAGES.roiLevelsSaved,
    percents: percents.map(formatPercent),
  };
}
