import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '../../src/shared/constants.ts';

// A cookie-keeping HTTP client that behaves like the browser app: it fetches a CSRF token first and
// sends it back in the header on every state-changing call.

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

export class ApiClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

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

  async request<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    const safe = method === 'GET' || method === 'HEAD';
    if (!safe && options.csrf !== false && !this.cookies.has(CSRF_COOKIE))
      await this.request('GET', '/auth/csrf');
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (!safe && options.csrf !== false) headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${API_BASE}${path}`, {
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
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body: body as T, headers: response.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
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
