import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, newMember, registerMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Per-address limits count an IPv6 client by its /64 (one subscriber holds a whole /64, so a fresh
// address of it is no fresh client), an IPv4 client by its address, and an IPv4-mapped IPv6 address as
// the IPv4 address. The test is the proxy (TRUST_PROXY names the loopback), so X-Forwarded-For picks
// the client address the server sees.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => server?.stop());

const from = (address: string) => ({ 'x-forwarded-for': address });
const signIn = (body: { email: string; password: string }, address: string) =>
  new ApiClient(server.baseUrl).post('/auth/signin', body, from(address));
const wrong = (email: string, i: number) => ({ email, password: `guess-${i}-wrong-password` });

/** Five addresses of the /64 `prefix` (e.g. `2001:db8:41:7`), written in different ways. */
const addressesOf = (prefix: string) => [
  `${prefix}::1`,
  `${prefix}::2`,
  `${prefix}:ffff:ffff:ffff:ffff`,
  `${prefix.toUpperCase()}:0:0:0:ABC`,
  `${prefix}:1234:5678:9abc:def0`,
];

describe('the sign-in limit of one address and e-mail (5 in 15 minutes)', () => {
  it('is shared by every address of one IPv6 /64, and not by the next /64', async () => {
    const member = await registerMember(server.baseUrl);
    let i = 0;
    for (const address of addressesOf('2001:db8:41:7'))
      expect((await signIn(wrong(member.email, i++), address)).status, address).toBe(401);
    // A sixth address of the same /64 is the same client: it has had its 5 tries, right password or not.
    const sixth = await signIn(member, '2001:db8:41:7:8000::6');
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ message: GENERIC.tooManyRequests });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    // The next /64 is another client.
    expect((await signIn(member, '2001:db8:41:8::1')).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, and the IPv4 neighbour apart', async () => {
    const member = await registerMember(server.baseUrl);
    for (let i = 0; i < 5; i++)
      expect((await signIn(wrong(member.email, i), '203.0.113.41')).status).toBe(401);
    expect((await signIn(member, '::ffff:203.0.113.41')).status).toBe(429);
    expect((await signIn(member, '203.0.113.42')).status).toBe(200);
  });
});

describe('the registration limit of one address (20 in 10 minutes)', () => {
  it('is shared by every address of one IPv6 /64', async () => {
    for (let i = 0; i < 20; i++) await registerMember(server.baseUrl, {}, from(`2001:db8:42:1::${i + 1}`));
    const member = newMember();
    const res = await new ApiClient(server.baseUrl).post(
      '/auth/register',
      member,
      from('2001:db8:42:1:ffff::99'),
    );
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
    expect((await signIn(member, '2001:db8:42:2::1')).status).toBe(401);
    // Another /64 registers.
    await registerMember(server.baseUrl, {}, from('2001:db8:42:2::1'));
  });
});

describe('the forgotten-password limit of one address (20 in 15 minutes)', () => {
  it('is shared by every address of one IPv6 /64', async () => {
    let n = 0;
    const ask = (address: string) =>
      new ApiClient(server.baseUrl).post(
        '/pass/forget',
        { email: `nobody-${++n}@example.com` },
        from(address),
      );
    for (let i = 0; i < 20; i++) expect((await ask(`2001:db8:43:1::${i + 1}`)).status).toBe(200);
    expect((await ask('2001:db8:43:1:abcd::1')).status).toBe(429);
    expect((await ask('2001:db8:43:2::1')).status).toBe(200);
  });
});
