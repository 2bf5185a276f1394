import type { QueryClient } from '@tanstack/react-query';
import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { currentAdmin, currentMember } from './session.ts';

type GuardArgs = { context: { queryClient: QueryClient }; location: ParsedLocation };

/** /user/*: members only. Signed out -> /login (and back here after); an admin -> /unauthorized. */
export function requireMember({ context, location }: GuardArgs): void {
  if (currentMember(context.queryClient)) return;
  if (currentAdmin(context.queryClient)) throw redirect({ to: '/unauthorized' });
  throw redirect({ to: '/login', search: { redirect: location.href } });
}

/** /admin/*: admins only. Signed out -> /admin-login (and back here after); a member -> /unauthorized. */
export function requireAdmin({ context, location }: GuardArgs): void {
  if (currentAdmin(context.queryClient)) return;
  if (currentMember(context.queryClient)) throw redirect({ to: '/unauthorized' });
  throw redirect({ to: '/admin-login', search: { redirect: location.href } });
}
