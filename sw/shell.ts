// The app shell as the service worker serves it. The server stamps each shell response with a fresh
// CSP style nonce, in its Content-Security-Policy header and in the page (meta csp-nonce); a precached
// copy would repeat one nonce forever, so each answer from the cache gets a new one, in both places.

/** Where the precache keeps the shell: the server answers this address with the shell (static-files.ts). */
export const SHELL_URL = '/app-shell';

const NONCE_IN_PAGE = /<meta name="csp-nonce" content="([^"]+)"/;

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** A copy of the cached shell whose header and body carry the same, new nonce. */
export async function withFreshNonce(cached: Response): Promise<Response> {
  const html = await cached.text();
  const headers = new Headers(cached.headers);
  // The body here is already decoded, and its length changes with the nonce.
  for (const name of ['content-encoding', 'content-length', 'etag']) headers.delete(name);
  const old = NONCE_IN_PAGE.exec(html)?.[1];
  const csp = headers.get('content-security-policy');
  if (!old || !csp?.includes(`'nonce-${old}'`)) return new Response(html, { status: 200, headers });
  const nonce = newNonce();
  headers.set('content-security-policy', csp.replaceAll(`'nonce-${old}'`, `'nonce-${nonce}'`));
  return new Response(html.replaceAll(`content="${old}"`, `content="${nonce}"`), { status: 200, headers });
}
