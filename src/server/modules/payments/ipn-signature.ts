import { createHmac, timingSafeEqual } from 'node:crypto';

// NOWPayments signs each IPN callback: x-nowpayments-sig is the HMAC-SHA512 (hex) of the body's JSON
// with its keys sorted recursively, keyed with the IPN secret.

export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function ipnSignature(body: unknown, secret: string): string {
  return createHmac('sha512', secret)
    .update(JSON.stringify(sortKeysDeep(body)))
    .digest('hex');
}

/** Constant-time comparison; false for a missing secret, a missing header or any mismatch. */
export function isValidIpnSignature(body: unknown, header: unknown, secret: string | undefined): boolean {
  if (!secret || typeof header !== 'string' || !/^[0-9a-f]{128}$/i.test(header)) return false;
  const expected = Buffer.from(ipnSignature(body, secret), 'hex');
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
