import type { PlanKind, PlanStatus } from '../../../../shared/plans.ts';

export const kindLabel = (kind: PlanKind) => (kind === 'plan' ? 'plan' : 'activation plan');
export const statusLabel = (status: PlanStatus) => (status === 'active' ? 'Active' : 'Inactive');
