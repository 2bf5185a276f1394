import type { QueryClient } from '@tanstack/react-query';
import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { adminFromServer, currentMember, safeRedirect } from './session.ts';

type GuardArgs = { context: { queryClient: QueryClient }; location: ParsedLocation };
type SignInPageArgs = { context: { queryClient: QueryClient }; search: { redirect?: string } };

// The member's session is persisted (spec 3), so it is known at once, offline too; the admin's is not,
// so an admin is asked of the server (GET /auth/session) once per page load.

/** /user/*: members only. Signed out -> /login (and back here after); an admin -> /unauthorized. */
export async function requireMember({ context, location }: GuardArgs): Promise<void> {
  if (currentMember(context.queryClient)) return;
  if (await adminFromServer(context.queryClient)) throw redirect({ to: '/unauthorized' });
  throw redirect({ to: '/login', search: { redirect: location.href } });
}

/** /admin/*: admins only. Signed out -> /admin-login (and back here after); a member -> /unauthorized. */
export async function requireAdmin({ context, location }: GuardArgs): Promise<void> {
  if (await adminFromServer(context.queryClient)) return;
  if (currentMember(context.queryClient)) throw redirect({ to: '/unauthorized' });
  throw redirect({ to: '/admin-login', search: { redirect: location.href } });
}

/** /login: a member already signed in goes on to where they were headed, by default their dashboard. */
export function skipMemberSignIn({ context, search }: SignInPageArgs): void {
  if (currentMember(context.queryClient))
    throw redirect({ to: safeRedirect(search.redirect, '/user/', '/user/dashboard') });
}

/** /admin-login: the same for an admin already signed in. */
export async function skipAdminSignIn({ context, search }: SignInPageArgs): Promise<void> {
  if (await adminFromServer(context.queryClient))
    throw redirect({ to: safeRedirect(search.redirect, '/admin/', '/admin/dashboard') });
}
