import { once } from 'node:events';
import { type IncomingHttpHeaders, request } from 'node:http';
import { API_BASE, CSRF_HEADER } from '../../src/shared/constants.ts';
import type { ApiClient } from './client.ts';

// A request in flight for certain: the server has read its headers (it answered 100 Continue) and
// waits for the body, which the test sends when it chooses (or never, as a client stuck mid-request).

export type HeldAnswer<T> = { status: number; headers: IncomingHttpHeaders; body: T };

/** A POST to `${API_BASE}${path}` as `browser` (its cookies and CSRF token), held before its body. */
export async function heldPost<T>(
  url: string,
  path: string,
  browser: ApiClient,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ release: () => void; answer: Promise<HeldAnswer<T>> }> {
  const text = JSON.stringify(body);
  const req = request(`${url}${API_BASE}${path}`, {
    method: 'POST',
    agent: false,
    headers: {
      cookie: browser.cookieHeader(),
      [CSRF_HEADER]: browser.csrfToken ?? '',
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      expect: '100-continue',
      ...headers,
    },
  });
  const answer = new Promise<HeldAnswer<T>>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        data += chunk;
      });
      res.once('error', reject);
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(data) as T }),
      );
    });
  });
  // Read by the test, or by nobody when the server is gone: never an unhandled rejection.
  answer.catch(() => {});
  req.flushHeaders();
  await once(req, 'continue');
  return { release: () => req.end(text), answer };
}
