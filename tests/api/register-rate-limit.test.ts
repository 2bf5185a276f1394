import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, newMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// At most 20 registrations per address in 10 minutes. A server of its own: the limit, once reached,
// would refuse every other test's registrations from this address.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('registration rate limit', () => {
  it('accepts 20 registrations from one address, then answers 429 with Retry-After and creates nothing', async () => {
    const register = (body: unknown) => new ApiClient(server.baseUrl).post('/auth/register', body);
    for (let i = 0; i < 20; i++) {
      const res = await register(newMember());
      expect(res.status).toBe(201);
    }
    const member = newMember();
    const res = await register(member);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);

    const signIn = await new ApiClient(server.baseUrl).post('/auth/signin', member);
    expect(signIn.status).toBe(401);
    expect((await register(newMember())).status).toBe(429);
  });
});
