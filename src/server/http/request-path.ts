import { posix } from 'node:path';

// Checks that depend on the path (CSRF, the session, no-store, the shell's fallback) must judge the path
// the router acted on, never the raw request line: `/%61pi/v1/auth/signin`, `/ap%69/...` and the
// absolute form `POST http://host/api/...` all reach the API route `/api/v1/auth/signin`, while the raw
// `request.url` of none of them starts with `/api/`.

const API_PREFIX = '/api/';

/**
 * The path of a request target as a router would read it: the absolute form reduced to its path, the
 * query dropped, percent-decoded once, repeated slashes and `.`/`..` segments resolved. An encoding that
 * does not decode (a lone `%`) is judged as it stands.
 */
export function normalisedPath(target: string): string {
  let path = target;
  if (!path.startsWith('/')) {
    try {
      path = new URL(path).pathname;
    } catch {
      return path;
    }
  }
  path = path.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // Left encoded: no route matches it either.
  }
  return posix.normalize(path);
}

/**
 * True when the request reaches the API: the route Fastify matched is an API route, or its normalised
 * path is under /api/ (a request no route matched, or the shell's catch-all). Either is enough, so a
 * spelling the router and this function read differently is still treated as an API request.
 */
export function isApiRequest(request: { url: string; routeOptions: { url?: string } }): boolean {
  if (request.routeOptions.url?.startsWith(API_PREFIX)) return true;
  return normalisedPath(request.url).startsWith(API_PREFIX);
}
