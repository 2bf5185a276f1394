import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { AdminSession, MemberSession, RegisterInput, SignInInput } from '../../../shared/auth.ts';
import { ApiError, api } from '../../lib/http.ts';
import { clearOfflineCopies } from '../../lib/offline.ts';

// The session slices of spec 3: `auth` (member) and `admin`, each with its expireAt. They live in the
// query cache (persisted under "root"); the server remains the judge, and GET /auth/session refreshes them.

type Current = MemberSession | AdminSession;

async function fetchCurrent(): Promise<Current | null> {
  try {
    return await api<Current>('GET', '/auth/session');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const memberSessionQuery = queryOptions({
  queryKey: ['auth'],
  queryFn: async (): Promise<MemberSession | null> => {
    const current = await fetchCurrent();
    return current && 'auth' in current ? current : null;
  },
});

export const adminSessionQuery = queryOptions({
  queryKey: ['admin'],
  queryFn: async (): Promise<AdminSession | null> => {
    const current = await fetchCurrent();
    return current && 'admin' in current ? current : null;
  },
});

const live = <T extends { expireAt: string }>(s: T | null | undefined): T | null =>
  s && Date.parse(s.expireAt) > Date.now() ? s : null;

export const currentMember = (qc: QueryClient) => live(qc.getQueryData(memberSessionQuery.queryKey));
export const currentAdmin = (qc: QueryClient) => live(qc.getQueryData(adminSessionQuery.queryKey));

/**
 * Forgets every trace of the signed-in person in this browser (shared phones): the query cache, the
 * persisted session and the offline copies of their data (done when the returned promise settles).
 */
export function clearSession(qc: QueryClient): Promise<void> {
  qc.clear();
  qc.setQueryData(memberSessionQuery.queryKey, null);
  qc.setQueryData(adminSessionQuery.queryKey, null);
  return clearOfflineCopies();
}

export async function signInMember(qc: QueryClient, input: SignInInput): Promise<MemberSession> {
  const session = await api<MemberSession>('POST', '/auth/signin', input);
  // One person per browser: signing in as a member ends any admin view held here.
  await clearSession(qc);
  qc.setQueryData(memberSessionQuery.queryKey, session);
  return session;
}

export async function signInAdmin(qc: QueryClient, input: SignInInput): Promise<AdminSession> {
  const session = await api<AdminSession>('POST', '/auth/adminsignin', input);
  await clearSession(qc);
  qc.setQueryData(adminSessionQuery.queryKey, session);
  return session;
}

export async function signOut(qc: QueryClient, role: 'member' | 'admin'): Promise<void> {
  try {
    // Web Push (issue 6): while still signed in, this device's push subscription ends (server, then
    // browser), so a shared phone stops receiving the last member's notifications.
    if (role === 'member') await endPushOnThisDevice().catch(() => undefined);
    await api('GET', role === 'admin' ? '/auth/signoutadmin' : '/auth/signout');
  } finally {
    await clearSession(qc);
  }
}

/** See signOut; the same steps as features/push turnOffPush (features do not import each other). */
async function endPushOnThisDevice(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  if (!subscription) return;
  await api('DELETE', '/push/subscriptions', { endpoint: subscription.endpoint }).catch(() => undefined);
  await subscription.unsubscribe();
}

export const register = (input: RegisterInput) => api<{ message: string }>('POST', '/auth/register', input);

/** Where to go after signing in: only a path of this app, never another site. */
export function safeRedirect(target: unknown, area: '/user/' | '/admin/', fallback: string): string {
  return typeof target === 'string' && target.startsWith(area) && !target.startsWith('//')
    ? target
    : fallback;
}
