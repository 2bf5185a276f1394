import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A push service on the loopback address, standing in for the browsers' push services (FCM, Mozilla,
// Apple): it records every message it is sent and answers with the status chosen per path (201 by
// default, 410 for a subscription that is gone). A browser-side subscription is made here too: an
// ECDH P-256 key pair and an auth secret, the way a browser makes them, so a test can decrypt what the
// server sent (RFC 8291 over RFC 8188 aes128gcm) exactly as the browser would.

export type ReceivedPush = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

export type FakeSubscription = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  decrypt: (body: Buffer) => string;
};

export type FakePushService = {
  received: ReceivedPush[];
  /** Answers every message sent to this path with this status from now on. */
  answer: (path: string, status: number) => void;
  subscription: (path: string) => FakeSubscription;
  /** Waits until a message has arrived at this path (or throws after timeoutMs). */
  waitFor: (path: string, timeoutMs?: number) => Promise<ReceivedPush>;
  /** Messages that arrived at this path so far. */
  at: (path: string) => ReceivedPush[];
  stop: () => Promise<void>;
};

export async function startFakePushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = statuses.get(path) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    received,
    answer: (path, status) => statuses.set(path, status),
    subscription: (path) => browserSubscription(`http://127.0.0.1:${port}${path}`),
    at,
    waitFor: async (path, timeoutMs = 5000) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const first = at(path)[0];
        if (first) return first;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no push message arrived at ${path} within ${timeoutMs} ms`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function browserSubscription(endpoint: string): FakeSubscription {
  const ecdh = createECDH('prime256v1');
  const userAgentPublic = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: userAgentPublic.toString('base64url'), auth: authSecret.toString('base64url') },
    decrypt: (body) => decryptAes128gcm(body, ecdh.getPrivateKey(), userAgentPublic, authSecret),
  };
}

/** RFC 8291 section 3.4 and RFC 8188 section 2: one record, as web push sends it. */
export function decryptAes128gcm(
  body: Buffer,
  userAgentPrivate: Buffer,
  userAgentPublic: Buffer,
  authSecret: Buffer,
): string {
  // Header: salt (16) | record size (4) | key id length (1) | key id (the server's ephemeral public key).
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(userAgentPrivate);
  const sharedSecret = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), userAgentPublic, serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The plaintext ends with the last-record delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('push record does not end with the last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks the VAPID Authorization header ("vapid t=<JWT>, k=<public key>", RFC 8292): the key is the
 * expected one and the JWT's ES256 signature verifies with it. Answers the JWT's claims.
 */
export function verifiedVapidClaims(header: string, expectedPublicKey: string): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  if (!match) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [, jwt = '', key = ''] = match;
  if (key !== expectedPublicKey) throw new Error('the VAPID key is not the server public key');
  const [head = '', claims = '', signature = ''] = jwt.split('.');
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('the VAPID signature does not verify');
  return JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
}
