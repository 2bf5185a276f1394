import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '../../../shared/constants.ts';
import type { ErrorBody } from '../../../shared/errors.ts';
import { GENERIC } from '../../../shared/messages.ts';
import type {
  AdminNotification,
  Banner,
  CreateNotificationInput,
  MemberNotification,
  NotificationsHome,
  RecipientCandidate,
} from '../../../shared/notifications.ts';
import { ApiError, api } from '../../lib/http.ts';

// Every query here starts with "notifications": the live channel refetches them all on that topic.

export const notificationsHomeQuery = queryOptions({
  queryKey: ['notifications', 'home'],
  queryFn: () => api<NotificationsHome>('GET', '/notifications/home'),
  staleTime: 0,
  // Asked even offline: the service worker answers from the member's offline copy.
  networkMode: 'offlineFirst',
});

export const myNotificationsQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['notifications', 'member', memberId],
    queryFn: async () =>
      (
        await api<{ notifications: MemberNotification[] }>(
          'GET',
          `/notifications/user/${encodeURIComponent(memberId)}`,
        )
      ).notifications,
    staleTime: 0,
    networkMode: 'offlineFirst',
  });

export const adminNotificationsQuery = queryOptions({
  queryKey: ['notifications', 'admin'],
  queryFn: async () =>
    (await api<{ notifications: AdminNotification[] }>('GET', '/notifications')).notifications,
  staleTime: 0,
});

export const bannerQuery = queryOptions({
  queryKey: ['notifications', 'banner'],
  queryFn: async () => (await api<{ banner: Banner | null }>('GET', '/notifications/banner')).banner,
});

export async function searchRecipients(email: string): Promise<RecipientCandidate[]> {
  const { users } = await api<{ users: RecipientCandidate[] }>(
    'GET',
    `/notifications/users?email=${encodeURIComponent(email)}`,
  );
  return users;
}

export const createNotification = (input: CreateNotificationInput) =>
  api<{ message: string; notification: AdminNotification }>('POST', '/notifications', input);

export const deleteNotification = (id: string) =>
  api<{ message: string }>('DELETE', `/notifications/delete/${encodeURIComponent(id)}`);

export const markNotificationSeen = (id: string, userId: string) =>
  api<{ message: string; notification: MemberNotification }>(
    'PUT',
    `/notifications/${encodeURIComponent(id)}/seen`,
    { userId },
  );

export const refreshNotifications = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['notifications'] });

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

async function postImage(file: File): Promise<Response> {
  if (!readCookie(CSRF_COOKIE)) await api('GET', '/auth/csrf');
  const form = new FormData();
  form.append('image', file);
  return fetch(`${API_BASE}/notifications/banner`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', [CSRF_HEADER]: readCookie(CSRF_COOKIE) ?? '' },
    body: form,
  });
}

/** POST /notifications/banner as multipart (the JSON client cannot carry a file). */
export async function uploadBanner(file: File): Promise<{ message: string; banner: Banner }> {
  let response = await postImage(file);
  let body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  // A token from before a sign-in elsewhere in this browser: a fresh one, and once more.
  if (response.status === 403 && body?.error === 'csrf') {
    await api('GET', '/auth/csrf');
    response = await postImage(file);
    body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  }
  if (!response.ok)
    throw new ApiError(response.status, body?.message ? body : { message: GENERIC.somethingWentWrong });
  return body as unknown as { message: string; banner: Banner };
}
