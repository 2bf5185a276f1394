import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import type * as v from 'valibot';
import type {
  LevelSettings,
  levelPercentsResultSchema,
  Plan,
  PlanKind,
  planDeleteResultSchema,
  planResultSchema,
} from '../../../shared/plans.ts';
import type { ActivationCode, codeBatchResultSchema, codeListSchema } from '../../../shared/topups.ts';
import { api } from '../../lib/http.ts';

// The admin's plans screen: plans and activation plans (one shape, two bases), the two level lists,
// and activation codes (API.md "Plans and top-ups").

export type PlanResult = v.InferOutput<typeof planResultSchema>;
export type PlanDeleteResult = v.InferOutput<typeof planDeleteResultSchema>;
export type LevelPercentsResult = v.InferOutput<typeof levelPercentsResultSchema>;
export type CodeBatchResult = v.InferOutput<typeof codeBatchResultSchema>;
export type CodeList = v.InferOutput<typeof codeListSchema>;
export type LevelList = 'active' | 'invest';

const base = (kind: PlanKind) => (kind === 'plan' ? '/plans' : '/actplan');

export const planListQuery = (kind: PlanKind) =>
  queryOptions({
    queryKey: ['plans', 'list', kind],
    queryFn: async (): Promise<Plan[]> => {
      if (kind === 'plan') return (await api<{ plans: Plan[] }>('GET', '/plans/list')).plans;
      return (await api<{ actplans: Plan[] }>('GET', '/actplan/list')).actplans;
    },
    staleTime: 0,
  });

/** The form's values as typed: strings the server validates again with the same schema. */
export type PlanFields = Record<string, string>;

export const createPlan = (kind: PlanKind, body: PlanFields) =>
  api<PlanResult>('POST', `${base(kind)}/add`, body);
export const updatePlan = (kind: PlanKind, id: string, body: PlanFields) =>
  api<PlanResult>('PUT', `${base(kind)}/${encodeURIComponent(id)}`, body);
export const deletePlan = (kind: PlanKind, id: string) =>
  api<PlanDeleteResult>('DELETE', `${base(kind)}/${encodeURIComponent(id)}`);

/** A plan change shows in both lists' callers (a plan's status decides where codes may be made). */
export const refreshPlans = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['plans'] });

export const levelSettingsQuery = queryOptions({
  queryKey: ['plans', 'levels'],
  queryFn: () => api<LevelSettings>('GET', '/plans/levels'),
  staleTime: 0,
});

export const saveLevelPercents = (which: LevelList, percents: string[]) =>
  api<LevelPercentsResult>('POST', `/plans/add${which}level`, { percents });

export const CODES_PAGE_SIZE = 20;

export const codeListQuery = (page: number) =>
  queryOptions({
    queryKey: ['codes', 'list', page],
    queryFn: () => api<CodeList>('GET', `/codes?page=${page}&limit=${CODES_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const codeDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['codes', 'detail', id],
    queryFn: () => api<ActivationCode>('GET', `/codes/${encodeURIComponent(id)}`),
    staleTime: 0,
  });

export const createCodes = (body: {
  plan_id: string;
  amount: string;
  count: number | undefined;
  funding: 'promotional' | 'paid';
}) => api<CodeBatchResult>('POST', '/codes', body);

export const refreshCodes = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['codes'] });
