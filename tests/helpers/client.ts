import {
  API_BASE,
  CSRF_COOKIE,
  CSRF_HEADER,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from '../../src/shared/constants.ts';
import { ADMIN } from './server.ts';

// A cookie-keeping HTTP client that behaves like the browser app: it fetches a CSRF token first and
// sends it back in the header on every state-changing call.

// Response bodies are whatever JSON the server sent; the tests assert on them with expect().
// biome-ignore lint/suspicious/noExplicitAny: an untyped JSON body, narrowed by the assertions
type Json = any;

export type ApiResponse<T = Json> = { status: number; body: T; text: string; headers: Headers };

export type RequestOptions = {
  body?: unknown;
  headers?: Record<string, string>;
  /** false: send no X-XSRF-TOKEN header and fetch no token first (the cookies still go). */
  csrf?: boolean;
};

// API.md: no response ever carries a stack trace or a password hash. Checked on every response.
const LEAKS = [/\$argon2/, /"stack"\s*:/, /(\\n|\n)\s+at .+:\d+:\d+/];

export class ApiClient {
  readonly cookies = new Map<string, string>();
  /**
   * `fetch` is the global one, or one that reaches the server another way (through nginx over TLS from
   * a chosen client address, tests/api/deploy-nginx.test.ts).
   */
  constructor(
    readonly baseUrl: string,
    readonly fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
  ) {}

  private remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** The session cookie, by either name (`__Host-sid` from a server on an https PUBLIC_URL). */
  get sid() {
    return this.cookies.get(SECURE_SESSION_COOKIE) ?? this.cookies.get(SESSION_COOKIE);
  }

  get csrfToken() {
    return this.cookies.get(CSRF_COOKIE);
  }

  async request<T = Json>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const safe = method === 'GET' || method === 'HEAD';
    if (!safe && options.csrf !== false && !this.cookies.has(CSRF_COOKIE))
      await this.request('GET', '/auth/csrf');
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (!safe && options.csrf !== false) headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, options.headers);
    const response = await this.fetch(`${this.baseUrl}${API_BASE}${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    this.remember(response.headers);
    const text = await response.text();
    const leak = LEAKS.find((pattern) => pattern.test(text));
    if (leak) throw new Error(`${method} ${path} answered with a leak (${leak}): ${text.slice(0, 500)}`);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body: body as T, text, headers: response.headers };
  }

  get<T = Json>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = Json>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
  }
  put<T = Json>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, { body, headers });
  }
  patch<T = Json>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, { body, headers });
  }

  /** Signs in at /auth/signin (or /auth/adminsignin) and fails loudly when that does not answer 200. */
  async signIn(
    credentials: { email: string; password: string },
    path = '/auth/signin',
    headers?: Record<string, string>,
  ) {
    const res = await this.post(path, { email: credentials.email, password: credentials.password }, headers);
    if (res.status !== 200) throw new Error(`sign-in at ${path} answered ${res.status}: ${res.text}`);
    return res;
  }
}

let counter = 0;
/** A valid registration body with unique username and e-mail. */
export function newMember(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    fullname: `Member ${tag}`,
    username: `m_${tag}`,
    email: `m_${tag}@example.com`,
    phone: '+15550100200',
    password: 'plum-orchard-quietly-91',
    ...overrides,
  };
}

/**
 * Registers a new member over HTTP (fails loudly unless 201); returns the body that was sent. `headers`
 * go with the registration, e.g. an X-Forwarded-For of its own to a server started with TRUST_PROXY,
 * so that many members are not one address's registrations.
 */
export async function registerMember(
  baseUrl: string,
  overrides: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  const member = newMember(overrides);
  const res = await new ApiClient(baseUrl).post('/auth/register', member, headers);
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${res.text}`);
  return member;
}

/** A new member, registered and signed in on a client of its own (`headers` as for registerMember). */
export async function signedInMember(
  baseUrl: string,
  overrides: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  const member = await registerMember(baseUrl, overrides, headers);
  const client = new ApiClient(baseUrl);
  const res = await client.signIn(member, '/auth/signin', headers);
  return { member, client, auth: res.body.auth, expireAt: res.body.expireAt as string };
}

/** A client signed in as the test server's root admin. */
export async function signedInAdminClient(baseUrl: string): Promise<ApiClient> {
  const admin = new ApiClient(baseUrl);
  await admin.signIn(ADMIN, '/auth/adminsignin');
  return admin;
}

/**
 * A signed-in member whose account an admin has made active (RULES.md: inactive members cannot
 * send transfers) and whose wallets the admin has credited through audited adjustments.
 */
export async function fundedMember(
  baseUrl: string,
  admin: ApiClient,
  funds: { business?: string; working?: string } = {},
  overrides: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  const member = await signedInMember(baseUrl, overrides, headers);
  const activated = await admin.put(`/users/${member.auth.id}`, { is_active: 'active' });
  if (activated.status !== 200) throw new Error(`activation answered ${activated.status}: ${activated.text}`);
  for (const [wallet, amount] of Object.entries(funds)) {
    const res = await admin.post('/admin/adjustments', {
      user_id: member.auth.id,
      wallet,
      direction: 'credit',
      amount,
      reason: 'Test funding',
    });
    if (res.status !== 201) throw new Error(`funding answered ${res.status}: ${res.text}`);
  }
  return member;
}

/** The same browser (its session and CSRF cookies, kept in the database) talking to another server process. */
export function sameBrowserOn(url: string, client: ApiClient): ApiClient {
  const moved = new ApiClient(url);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}
