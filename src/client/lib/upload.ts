import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants.ts';
import type { ErrorBody } from '../../shared/errors.ts';
import { GENERIC } from '../../shared/messages.ts';
import { ApiError, api, NetworkError } from './http.ts';

// One image as multipart/form-data (the JSON client cannot carry a file), with the CSRF header and
// the same one retry on a stale token as api(). The server answers { image: { name, url } }.

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

async function postForm(path: string, file: File): Promise<Response> {
  if (!readCookie(CSRF_COOKIE)) await api('GET', '/auth/csrf');
  const form = new FormData();
  form.append('image', file);
  return fetch(`${API_BASE}${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', [CSRF_HEADER]: readCookie(CSRF_COOKIE) ?? '' },
    body: form,
  }).catch(() => {
    throw new NetworkError();
  });
}

export async function uploadImage(path: string, file: File): Promise<{ name: string; url: string }> {
  let response = await postForm(path, file);
  let body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  if (response.status === 403 && body?.error === 'csrf') {
    await api('GET', '/auth/csrf');
    response = await postForm(path, file);
    body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  }
  if (!response.ok)
    throw new ApiError(
      response.status,
      body && 'message' in body ? body : { message: GENERIC.somethingWentWrong },
    );
  return (body as unknown as { image: { name: string; url: string } }).image;
}
