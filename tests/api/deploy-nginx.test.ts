import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as plainRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURE_SESSION_COOKIE } from '../../src/shared/constants.ts';
import { noisyPng, uploadFile } from '../fixtures/images.ts';
import { countOf, type LiveStream, openStream } from '../fixtures/live-stream.ts';
import { ApiClient, newMember } from '../helpers/client.ts';
import { type Nginx, renderSite, startNginx } from '../helpers/nginx.ts';
import { freePort, PROCESS_ADMIN, type ServerProcess, sharedDatabase } from '../helpers/server-process.ts';

// docs/deployment.md, "Production: nginx, N processes, systemd": the shipped nginx site
// (deploy/nginx/platform.conf) in a real nginx, in front of two real server processes on one
// PostgreSQL schema, started with the HOST and TRUST_PROXY of the shipped deploy/platform.env.example.
// Only the ports, the certificate (self-signed, made here) and the IPv6 listens (the test binds
// loopback only) differ from the files an operator installs. Clients connect from loopback addresses
// of their own (127.0.0.2, ...), so the address nginx passes on is not nginx's own 127.0.0.1.
// Always PostgreSQL: several processes on one database are a PostgreSQL set-up.

const HOSTNAME = 'platform.example.com';
const METRICS_TOKEN = 'metrics-token-for-the-nginx-test-0123456789';
const prefix = mkdtempSync(join(tmpdir(), 'platform-nginx-'));
const cleanups: (() => Promise<void>)[] = [];
const agents: Agent[] = [];
const streams: LiveStream[] = [];
let nginx: Nginx;
let servers: ServerProcess[] = [];
let base = '';
let httpPort = 0;
let ca = '';

/** A fetch that reaches nginx over TLS (trusting the test's certificate) from `localAddress`. */
function via(localAddress: string): typeof globalThis.fetch {
  const agent = new Agent({ localAddress, connect: { ca } });
  agents.push(agent);
  return ((input: string, init: object) =>
    undiciFetch(input, { ...init, dispatcher: agent })) as unknown as typeof globalThis.fetch;
}

const client = (localAddress: string) => new ApiClient(base, via(localAddress));
const upstreams = () => servers.map((s) => new URL(s.url).host);

beforeAll(async () => {
  const shipped = parseEnv(readFileSync('deploy/platform.env.example', 'utf8'));
  const [httpsPort, cert, key] = [await freePort(), join(prefix, 'cert.pem'), join(prefix, 'key.pem')];
  httpPort = await freePort();
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
      ...['-keyout', key, '-out', cert, '-subj', `/CN=${HOSTNAME}`],
      ...['-addext', `subjectAltName=DNS:${HOSTNAME},IP:127.0.0.1`],
    ],
    { stdio: 'pipe' },
  );
  ca = readFileSync(cert, 'utf8');
  base = `https://127.0.0.1:${httpsPort}`;

  const db = await sharedDatabase('postgres', {
    dirPrefix: 'nginx',
    schemaPrefix: 'ngx',
    env: {
      HOST: shipped.HOST ?? '',
      TRUST_PROXY: shipped.TRUST_PROXY ?? '',
      PUBLIC_URL: base,
      METRICS_TOKEN,
      INCOME_SCHEDULE: 'off',
      SALARY_SCHEDULE: 'off',
    },
    cleanups,
  });
  // One after the other: the first creates the schema's tables and the admin.
  servers = [await db.start('one'), await db.start('two')];

  const [one = '', two = ''] = upstreams().map((host) => host.split(':')[1]);
  const site = renderSite(readFileSync('deploy/nginx/platform.conf', 'utf8'), [
    ['listen 80;', `listen 127.0.0.1:${httpPort};`],
    ['listen [::]:80;', ''],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
    ['listen [::]:443 ssl http2;', ''],
    ['server 127.0.0.1:8081;', `server 127.0.0.1:${one};`],
    ['server 127.0.0.1:8082;', `server 127.0.0.1:${two};`],
    [`/etc/letsencrypt/live/${HOSTNAME}/fullchain.pem`, cert],
    [`/etc/letsencrypt/live/${HOSTNAME}/privkey.pem`, key],
  ]);
  nginx = await startNginx(site, prefix, httpsPort);
}, 120_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all(agents.map((agent) => agent.close()));
  await nginx?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(prefix, { recursive: true, force: true });
});

describe('the shipped nginx site in front of two server processes', () => {
  it('answers over HTTPS with the server’s HSTS, sends plain HTTP to HTTPS, and keeps metrics off the internet', async () => {
    const ready = await via('127.0.0.2')(`${base}/api/v1/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');

    const redirect = await new Promise<{ status?: number; location?: string }>((resolve, reject) => {
      const request = plainRequest(
        { host: '127.0.0.1', port: httpPort, path: '/login?from=qr', headers: { host: HOSTNAME } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode, location: res.headers.location });
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(redirect).toEqual({ status: 301, location: `https://${HOSTNAME}/login?from=qr` });

    const auth = { authorization: `Bearer ${METRICS_TOKEN}` };
    const throughNginx = await via('127.0.0.2')(`${base}/api/v1/metrics`, { headers: auth });
    expect(throughNginx.status).toBe(404);
    // Each process still answers its own scrape, on the address nginx uses to reach it.
    const direct = await fetch(`${servers[0]?.url}/api/v1/metrics`, { headers: auth });
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('http_requests_total');
  });

  it('signs in with a Secure __Host- session cookie that both processes accept', async () => {
    const member = newMember();
    const alice = client('127.0.0.2');
    expect((await alice.post('/auth/register', member)).status).toBe(201);
    const signIn = await alice.signIn(member);
    const cookie = signIn.headers.getSetCookie().find((line) => line.startsWith(`${SECURE_SESSION_COOKIE}=`));
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);

    const before = nginx.accessLog().length;
    for (let i = 0; i < 4; i += 1) {
      const res = await alice.get('/auth/session');
      expect(res.status).toBe(200);
      expect(res.body.auth.email).toBe(member.email);
    }
    const answered = () =>
      nginx
        .accessLog()
        .slice(before)
        .split('\n')
        .filter((line) => line.includes('GET /api/v1/auth/session '))
        .map((line) => line.split(' ').at(-1));
    // nginx writes a request's log line after it has sent the answer: the last may not be there yet.
    await expect.poll(() => answered().length, { timeout: 5_000 }).toBe(4);
    const answeredBy = answered();
    expect(new Set(answeredBy)).toEqual(new Set(upstreams()));
  });

  it('sees each client’s own address, whatever X-Forwarded-For the client sends', async () => {
    // The address on the member's device list is the one they connected from.
    const member = newMember();
    const bob = client('127.0.0.2');
    expect((await bob.post('/auth/register', member)).status).toBe(201);
    const spoofed = { 'x-forwarded-for': '203.0.113.7' };
    const signIn = await bob.request('POST', '/auth/signin', {
      body: { email: member.email, password: member.password },
      headers: spoofed,
    });
    expect(signIn.status).toBe(200);
    const sessions = await bob.get('/auth/sessions');
    expect(sessions.body.sessions[0]).toMatchObject({ current: true, ip: '127.0.0.2' });

    // Five wrong passwords from one address block that address for this account, even when the
    // guesser claims another address each time; the member, at another address, still signs in.
    const guesser = client('127.0.0.3');
    for (let i = 0; i < 5; i += 1) {
      const res = await guesser.request('POST', '/auth/signin', {
        body: { email: member.email, password: `wrong-guess-${i}` },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await guesser.request('POST', '/auth/signin', {
      body: { email: member.email, password: member.password },
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(blocked.status).toBe(429);
    const elsewhere = client('127.0.0.4');
    expect((await elsewhere.signIn(member)).status).toBe(200);
  });

  it('delivers a live event through nginx as it is sent, and passes an upload near the 5 MB limit', async () => {
    const member = newMember();
    const carol = client('127.0.0.2');
    expect((await carol.post('/auth/register', member)).status).toBe(201);
    const { body } = await carol.signIn(member);
    const stream = await openStream(base, carol.cookieHeader(), { ca, localAddress: '127.0.0.2' });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor((messages) => countOf(messages, 'ready') === 1);

    const admin = client('127.0.0.5');
    await admin.signIn(PROCESS_ADMIN, '/auth/adminsignin');
    const created = await admin.post('/notifications', {
      title: 'Through nginx',
      message: 'Sent while the stream is open',
      users: false,
      recipients: [body.auth.id],
    });
    expect(created.status).toBe(201);
    await stream.waitFor((messages) => countOf(messages, 'notifications') === 1);

    // nginx's own limit is 1 MB; the site allows the server's 5 MB.
    const image = await noisyPng(4 * 1024 * 1024);
    expect(image.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(image.length).toBeLessThan(5 * 1024 * 1024);
    const uploaded = await uploadFile(admin, '/notifications/banner', {
      bytes: image,
      filename: 'banner.png',
      contentType: 'image/png',
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  });

  it('keeps answering, reads and writes, while one process is stopped (a rolling restart)', async () => {
    const member = newMember();
    const dave = client('127.0.0.6');
    expect((await dave.post('/auth/register', member)).status).toBe(201);
    await servers[0]?.stop();
    for (let i = 0; i < 3; i += 1) {
      expect((await dave.signIn(member)).status).toBe(200);
      expect((await dave.get('/auth/session')).status).toBe(200);
    }
    expect(nginx.output()).not.toMatch(/\[(emerg|alert|crit)\]/);
  });
});
