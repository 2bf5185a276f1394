import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import {
  ACTIVE_FLAGS,
  INVESTED_FILTERS,
  MEMBER_SORTS,
  SORT_ORDERS,
  USER_STATUSES,
} from '../../../shared/enums.ts';
import { MembersList } from '../../features/users/components/members-list.tsx';

const optional = <T extends v.GenericSchema>(schema: T) => v.fallback(v.optional(schema), undefined);

export const Route = createFileRoute('/admin/users')({
  // The search, filter, order and page are in the address: a reload or a shared link shows the same list.
  validateSearch: v.object({
    search: optional(v.pipe(v.string(), v.maxLength(100))),
    status: optional(v.picklist(USER_STATUSES)),
    is_active: optional(v.picklist(ACTIVE_FLAGS)),
    invested: optional(v.picklist(INVESTED_FILTERS)),
    sort: v.optional(v.fallback(v.picklist(MEMBER_SORTS), 'created_at'), 'created_at'),
    order: v.optional(v.fallback(v.picklist(SORT_ORDERS), 'desc'), 'desc'),
    page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1), 1),
  }),
  component: MembersPage,
});

function MembersPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <h1>Members</h1>
      <MembersList state={search} onChange={(next) => navigate({ search: next })} />
    </div>
  );
}
