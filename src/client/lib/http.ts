import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '../../shared/constants.ts';
import type { ErrorBody } from '../../shared/errors.ts';
import { GENERIC } from '../../shared/messages.ts';
import { OFFLINE_COPY_HEADER } from '../../shared/offline.ts';
import { firstErrorPerField } from './field-errors.ts';
import { noteAnswer } from './offline.ts';

// The one way the client talks to the server: same-origin cookies, the CSRF double-submit header on
// every state-changing call, and one error type carrying the API's error body.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message || GENERIC.somethingWentWrong);
    this.name = 'ApiError';
  }
  /** The text to show: the server's `error` field where it gave one, else its message. */
  get display(): string {
    return this.body.error && this.body.error !== 'csrf' ? this.body.error : this.message;
  }
  fieldErrors(): Record<string, string> {
    return firstErrorPerField(this.body.errors ?? []);
  }
}

/** Why nothing answered, as far as the device can tell: offline, or the server out of reach. */
export const noAnswerText = () =>
  typeof navigator !== 'undefined' && navigator.onLine === false ? GENERIC.offline : GENERIC.noAnswer;

/**
 * No answer at all (offline, the server unreachable, the connection cut), thrown instead of the
 * browser's own TypeError ("Failed to fetch"), saying which of the two the device can tell. Deliberately not an
 * ApiError: screens treat an ApiError as the server's word and fall back to their own spec text
 * (e.g. "Failed to create payment") for anything else, which is right when nothing answered.
 */
export class NetworkError extends Error {
  constructor() {
    super(noAnswerText());
    this.name = 'NetworkError';
  }
}
const networkError = () => new NetworkError();

let onUnauthorized: (() => void) | undefined;
/** Called when a signed-in call answers 401: the session ended on the server (expired, blocked, signed out elsewhere). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** GET /auth/csrf sets the token cookie; its body is read to the end so the request closes. */
async function fetchCsrfCookie(): Promise<void> {
  await readBody(await send('GET', '/auth/csrf'));
}

async function ensureCsrfToken(): Promise<string> {
  const existing = readCookie(CSRF_COOKIE);
  if (existing) return existing;
  await fetchCsrfCookie();
  return readCookie(CSRF_COOKIE) ?? '';
}

async function send(
  method: string,
  path: string,
  body?: unknown,
  csrfToken?: string,
  extraHeaders?: Record<string, string>,
): Promise<Response> {
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken !== undefined) headers[CSRF_HEADER] = csrfToken;
  try {
    return await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw networkError();
  }
}

async function readBody(response: Response): Promise<unknown> {
  // The connection can also drop halfway through the body.
  const text = await response.text().catch(() => {
    throw networkError();
  });
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { message: GENERIC.somethingWentWrong };
  }
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  /** Extra request headers, e.g. an Idempotency-Key for a money-moving call. */
  headers?: Record<string, string>,
): Promise<T> {
  const safe = method === 'GET';
  let response = await send(method, path, body, safe ? undefined : await ensureCsrfToken(), headers);
  // The service worker answers a few GETs from the member's offline copy: the app says so on screen.
  if (safe) noteAnswer(path, response.headers.get(OFFLINE_COPY_HEADER));
  let parsed = await readBody(response);
  // A token from before a sign-in elsewhere in this browser: fetch a fresh one and try once more.
  if (!safe && response.status === 403 && (parsed as ErrorBody | undefined)?.error === 'csrf') {
    await fetchCsrfCookie();
    response = await send(method, path, body, readCookie(CSRF_COOKIE) ?? '', headers);
    parsed = await readBody(response);
  }
  if (!response.ok) {
    const errorBody = (
      parsed && typeof parsed === 'object' ? parsed : { message: GENERIC.somethingWentWrong }
    ) as ErrorBody;
    if (response.status === 401 && !path.startsWith('/auth/')) onUnauthorized?.();
    throw new ApiError(response.status, errorBody);
  }
  return parsed as T;
}

/**
 * The text to show for any failure, saying what to do next. No answer (a NetworkError, or the
 * TypeError fetch rejects with in a call made outside api(), e.g. a file upload) says whether the
 * device is offline, never the browser's "Failed to fetch"; a server fault without words of its own
 * gets the server's word for it. Screens the spec gives a fallback of its own (transfers, tickets,
 * payments) keep theirs.
 */
export const errorText = (error: unknown) =>
  error instanceof ApiError
    ? error.status >= 500 && error.display === GENERIC.somethingWentWrong
      ? GENERIC.internal
      : error.display
    : error instanceof NetworkError || error instanceof TypeError || !(error instanceof Error)
      ? noAnswerText()
      : error.message;
