import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Headers every API answer carries: a strict CSP, no MIME sniffing, and no caching of member data.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const directives = (csp: string | null) =>
  new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name.toLowerCase(), values] as const;
      }),
  );

describe('security headers on API responses', () => {
  it('sends a CSP of our own origin only that forbids framing', async () => {
    const res = await new ApiClient(server.baseUrl).get('/health');
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });

  it('sends nosniff and no-store on success and error answers alike', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const answers = [
      await client.get('/auth/session'),
      await client.get('/users/counts'),
      await new ApiClient(server.baseUrl).get('/auth/session'),
      await new ApiClient(server.baseUrl).get('/no-such-call'),
      await new ApiClient(server.baseUrl).post('/auth/register', {}),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 403, 401, 404, 400]);
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('does not announce the server software', async () => {
    const res = await new ApiClient(server.baseUrl).get('/health');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});
