import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_SLOWDOWN } from '../../src/server/modules/auth/auth.service.ts';
import { AUTH, GENERIC } from '../../src/shared/messages.ts';
import { ApiClient, registerMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Issue 14, the sign-in review: every attempt is counted before the password is checked, atomically, so
// parallel guesses cannot all reach the check; besides the per-(address, e-mail) limit, a per-e-mail
// slowdown holds a guesser with many addresses (10 tries, then a growing wait, never a lockout).
// TRUST_PROXY names the proxy (here the test itself, on the loopback address): the address is the entry
// that proxy appended to X-Forwarded-For, whatever the client wrote before it.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => server?.stop());

let nextAddress = 0;
/** A fresh documentation address (TEST-NET-2) per call: a client of its own, as far as the server sees. */
const freshAddress = () => {
  nextAddress += 1;
  return `198.51.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};

const signIn = (body: { email: string; password: string }, forwardedFor = freshAddress()) =>
  new ApiClient(server.baseUrl).post('/auth/signin', body, { 'x-forwarded-for': forwardedFor });

const statuses = (answers: { status: number }[]) => answers.map((res) => res.status).sort();

describe('failed sign-ins are counted before the password is checked', () => {
  it('lets 5 of 50 parallel wrong passwords from one address reach the check, the rest 429', async () => {
    const member = await registerMember(server.baseUrl);
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        signIn({ email: member.email, password: `guess-${i}-wrong` }, address),
      ),
    );
    const refused = answers.filter((res) => res.status === 429);
    expect(statuses(answers)).toEqual([...Array(5).fill(401), ...Array(45).fill(429)]);
    for (const res of refused) {
      expect(res.body).toEqual({ message: GENERIC.tooManyRequests });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // That address is done for this e-mail; the member elsewhere is not.
    expect((await signIn(member, address)).status).toBe(429);
    expect((await signIn(member)).status).toBe(200);
  });

  it('lets 10 of 50 parallel wrong passwords from 50 addresses reach the check, then slows down, and the real password works once the wait is over', async () => {
    const member = await registerMember(server.baseUrl);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signIn({ email: member.email, password: `guess-${i}-wrong` })),
    );
    // Ten pass at once; then one more each time a wait is over. On a busy machine the 50 requests can
    // take longer to arrive than the first wait (a second), so the waits that ended while they were
    // still arriving each let one more through: count them from the time the burst took.
    const elapsedMs = Date.now() - started;
    const { free, delaysMs } = SIGN_IN_SLOWDOWN;
    let waitsOver = 0;
    for (let i = 0, end = delaysMs[0] as number; end <= elapsedMs; i++, end += delaysMs[i] as number)
      waitsOver += 1;
    const passed = answers.filter((r) => r.status === 401).length;
    expect(passed).toBeGreaterThanOrEqual(free);
    expect(passed).toBeLessThanOrEqual(free + waitsOver);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(50 - passed);
    for (const res of answers.filter((r) => r.status === 401))
      expect(res.body).toEqual({ message: AUTH.invalidCredentials });
    const waits = answers.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after')));
    // Each wait is the one that follows the tries let through (or the next, for a request that read
    // the clock just before the one that set it), never more.
    expect(Math.max(...waits)).toBeLessThanOrEqual((delaysMs[passed - free + 1] as number) / 1000);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1);

    // The real member, from an address of their own, is told to wait too: the account is being guessed.
    const early = await signIn(member);
    expect(early.status).toBe(429);
    const wait = Number(early.headers.get('retry-after'));
    await sleep(wait * 1000);
    const right = await signIn(member);
    expect(right.status, right.text).toBe(200);
    expect(right.body.auth.email).toBe(member.email);

    // The success forgot the streak: 10 tries pass at once again.
    for (let i = 0; i < 10; i++)
      expect((await signIn({ email: member.email, password: `again-${i}-wrong` })).status).toBe(401);
    expect((await signIn(member)).status).toBe(429);
  });

  it('makes each wait longer than the last while the guessing goes on', async () => {
    const member = await registerMember(server.baseUrl);
    const wrong = () => signIn({ email: member.email, password: 'still-the-wrong-one' });
    for (let i = 0; i < 10; i++) expect((await wrong()).status).toBe(401);
    const first = await wrong();
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBe(1);
    await sleep(1000);
    expect((await wrong()).status).toBe(401);
    const second = await wrong();
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBe(2);
  });

  it('answers an unknown e-mail the same way, and slows down no other account', async () => {
    const member = await registerMember(server.baseUrl);
    const nobody = { email: `nobody-${Date.now()}@example.com`, password: 'any-password-at-all' };
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(nobody)));
    expect(statuses(answers)).toEqual([...Array(10).fill(401), 429, 429]);
    expect((await signIn(member)).status).toBe(200);
  });
});

describe('TRUST_PROXY with the proxy address', () => {
  it('takes the address the proxy appended, not the ones the client wrote before it', async () => {
    const member = await registerMember(server.baseUrl);
    const real = freshAddress();
    for (let i = 0; i < 5; i++) {
      const spoofed = `${freshAddress()}, ${real}`;
      expect((await signIn({ email: member.email, password: `guess-${i}-wrong` }, spoofed)).status).toBe(401);
    }
    // Another spoofed entry does not make a new client: that address has had its 5 tries.
    expect((await signIn(member, `203.0.113.77, ${real}`)).status).toBe(429);
    // Another real address is another client.
    expect((await signIn(member, freshAddress())).status).toBe(200);
  });

  it('records the appended address as the session address', async () => {
    const member = await registerMember(server.baseUrl);
    const real = freshAddress();
    const res = await signIn(member, `203.0.113.99, ${real}`);
    expect(res.status).toBe(200);
    const session = await server.db
      .selectFrom('sessions')
      .select('ip')
      .where('user_id', '=', res.body.auth.id)
      .executeTakeFirstOrThrow();
    expect(session.ip).toBe(real);
  });
});

describe('TRUST_PROXY with a hop count', () => {
  it('believes that many hops: with 1, the entry the one proxy appended', async () => {
    const oneHop = await startServer({ TRUST_PROXY: '1' });
    try {
      const member = await registerMember(oneHop.baseUrl);
      const res = await new ApiClient(oneHop.baseUrl).post('/auth/signin', member, {
        'x-forwarded-for': '203.0.113.50, 198.51.100.60',
      });
      expect(res.status).toBe(200);
      const session = await oneHop.db
        .selectFrom('sessions')
        .select('ip')
        .where('user_id', '=', res.body.auth.id)
        .executeTakeFirstOrThrow();
      expect(session.ip).toBe('198.51.100.60');
    } finally {
      await oneHop.stop();
    }
  });
});
