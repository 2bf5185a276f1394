import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { AdminSession, MemberSession, RegisterInput, SignInInput } from '../../../shared/auth.ts';
import type { CodeInput, OtpRequired } from '../../../shared/two-factor.ts';
import { ApiError, api } from '../../lib/http.ts';
import { clearOfflineCopies } from '../../lib/offline.ts';

// The session slices of spec 3: `auth` with `expireAt` (member) and `admin` with `adminExpireAt`. They
// live in the query cache; only `auth` is persisted under "root" (spec 3, 9), so an admin's session is
// asked of the server again (GET /auth/session) after a reload. The server remains the judge.

type Current = MemberSession | AdminSession;

/** The admin slice as the client keeps it (spec 3): the API's `{admin, expireAt}` under spec names. */
export type AdminSessionState = { admin: AdminSession['admin']; adminExpireAt: string };

const toAdminState = (session: AdminSession): AdminSessionState => ({
  admin: session.admin,
  adminExpireAt: session.expireAt,
});

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
  queryFn: async (): Promise<AdminSessionState | null> => {
    const current = await fetchCurrent();
    return current && 'admin' in current ? toAdminState(current) : null;
  },
  // Asked by the /admin guards before a screen shows: no answer fails at once (an offline browser
  // would otherwise wait for the network) and the guard sends to sign in.
  networkMode: 'always',
  retry: false,
});

const isLive = (expireAt: string | undefined) => expireAt !== undefined && Date.parse(expireAt) > Date.now();

export function currentMember(qc: QueryClient): MemberSession | null {
  const session = qc.getQueryData(memberSessionQuery.queryKey);
  return session && isLive(session.expireAt) ? session : null;
}

export function currentAdmin(qc: QueryClient): AdminSessionState | null {
  const session = qc.getQueryData(adminSessionQuery.queryKey);
  return session && isLive(session.adminExpireAt) ? session : null;
}

/**
 * The signed-in admin, asking the server when this page load has not yet (the admin slice is not
 * persisted). No answer at all (offline) counts as no admin: the guards then send to sign in.
 */
export async function adminFromServer(qc: QueryClient): Promise<AdminSessionState | null> {
  const cached = currentAdmin(qc);
  if (cached) return cached;
  const session = await qc.ensureQueryData(adminSessionQuery).catch(() => null);
  return session && isLive(session.adminExpireAt) ? session : null;
}

let endedHere = false;
/**
 * Whether this page ended the session itself (sign-out, expiry, a 401), as opposed to the server
 * answering "nobody" to GET /auth/session: whoever ended it also chose where to go next.
 */
export const sessionEndedHere = () => endedHere;

/**
 * Forgets every trace of the signed-in person in this browser (shared phones): the query cache, the
 * persisted session and the offline copies of their data (done when the returned promise settles).
 */
export async function clearSession(qc: QueryClient): Promise<void> {
  endedHere = true;
  qc.clear();
  qc.setQueryData(memberSessionQuery.queryKey, null);
  qc.setQueryData(adminSessionQuery.queryKey, null);
  await clearOfflineCopies();
  afterSessionCleared?.();
}

let afterSessionCleared: (() => void) | undefined;
/**
 * Called once a session's traces are gone here. The server's answer that ended it (sign-out, a 401)
 * also had the browser clear this site's storage, service worker included (Clear-Site-Data, a header
 * the browser keeps from the page): the app registers the worker again.
 */
export function setAfterSessionCleared(handler: () => void): void {
  afterSessionCleared = handler;
}

/** The password step's outcome: signed in, or a two-factor code is asked for (POST /auth/otp-code). */
export type SignInStep = 'signed-in' | 'otp-required';

const needsCode = (answer: object): answer is OtpRequired => 'otp_required' in answer;

async function keepMember(qc: QueryClient, session: MemberSession): Promise<void> {
  // One person per browser: signing in as a member ends any admin view held here.
  await clearSession(qc);
  endedHere = false;
  qc.setQueryData(memberSessionQuery.queryKey, session);
}

async function keepAdmin(qc: QueryClient, session: AdminSession): Promise<void> {
  await clearSession(qc);
  endedHere = false;
  qc.setQueryData(adminSessionQuery.queryKey, toAdminState(session));
}

export async function signInMember(qc: QueryClient, input: SignInInput): Promise<SignInStep> {
  const answer = await api<MemberSession | OtpRequired>('POST', '/auth/signin', input);
  if (needsCode(answer)) return 'otp-required';
  await keepMember(qc, answer);
  return 'signed-in';
}

export async function signInAdmin(qc: QueryClient, input: SignInInput): Promise<SignInStep> {
  const answer = await api<AdminSession | OtpRequired>('POST', '/auth/adminsignin', input);
  if (needsCode(answer)) return 'otp-required';
  await keepAdmin(qc, answer);
  return 'signed-in';
}

/** The second step: the code from the app (or a recovery code) finishes the sign-in the password began. */
export async function signInWithCode(qc: QueryClient, input: CodeInput): Promise<void> {
  const session = await api<MemberSession | AdminSession>('POST', '/auth/otp-code', input);
  if ('admin' in session) await keepAdmin(qc, session);
  else await keepMember(qc, session);
}

export async function signOut(qc: QueryClient, role: 'member' | 'admin'): Promise<void> {
  try {
    // Web Push (issue 6): while still signed in, this device's push subscription ends (server, then
    // browser), so a shared phone stops receiving the last member's notifications.
    if (role === 'member') await endPushOnThisDevice().catch(() => undefined);
    // POST, with the CSRF header: another site cannot sign the member out (the GET stays for old clients).
    await api('POST', role === 'admin' ? '/auth/signoutadmin' : '/auth/signout');
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
