import { describe, expect, it } from 'vitest';
import { memberQrText, parseQrPayload, walletAddressOf } from './qr.ts';

const ORIGIN = 'https://members.example.com';
const ADDRESS = '0x55d398326f99059fF775485246999027B3197955';

describe('member QR codes', () => {
  it('reads back the code it writes, with an e-mail that needs encoding', () => {
    const text = memberQrText(ORIGIN, 'ann+savings@example.com');
    expect(text).toBe('https://members.example.com/user/transfer-form?to=ann%2Bsavings%40example.com');
    expect(parseQrPayload(text, ORIGIN)).toEqual({ kind: 'member', email: 'ann+savings@example.com' });
  });

  it('lower-cases the e-mail and ignores surrounding blanks', () => {
    expect(
      parseQrPayload(`  ${ORIGIN}/user/transfer-form?to=Ann@Example.COM\n`, `${ORIGIN}/user/transfer`),
    ).toEqual({
      kind: 'member',
      email: 'ann@example.com',
    });
  });

  it('refuses another origin, another path, a missing or bad e-mail', () => {
    expect(parseQrPayload('https://evil.example.net/user/transfer-form?to=ann@example.com', ORIGIN)).toEqual({
      kind: 'unknown',
    });
    expect(parseQrPayload(`${ORIGIN}/user/transfer?to=ann@example.com`, ORIGIN)).toEqual({ kind: 'unknown' });
    expect(parseQrPayload(`${ORIGIN}/user/transfer-form`, ORIGIN)).toEqual({ kind: 'unknown' });
    expect(parseQrPayload(`${ORIGIN}/user/transfer-form?to=not-an-email`, ORIGIN)).toEqual({
      kind: 'unknown',
    });
    expect(parseQrPayload('ann@example.com', ORIGIN)).toEqual({ kind: 'unknown' });
    expect(parseQrPayload('hello world', ORIGIN)).toEqual({ kind: 'unknown' });
    expect(parseQrPayload('', ORIGIN)).toEqual({ kind: 'unknown' });
  });
});

describe('wallet address codes', () => {
  it('reads a plain BEP20 address', () => {
    expect(parseQrPayload(ADDRESS, ORIGIN)).toEqual({ kind: 'address', address: ADDRESS });
  });

  it('drops an ethereum: prefix, a chain and a query', () => {
    expect(walletAddressOf(`ethereum:${ADDRESS}@56?value=1`)).toBe(ADDRESS);
    expect(walletAddressOf(`${ADDRESS}?amount=12.50`)).toBe(ADDRESS);
  });

  it('refuses a short, long or non-hex address', () => {
    expect(walletAddressOf(ADDRESS.slice(0, 41))).toBeNull();
    expect(walletAddressOf(`${ADDRESS}0`)).toBeNull();
    expect(walletAddressOf(`0x${'g'.repeat(40)}`)).toBeNull();
    expect(parseQrPayload(`0x${'g'.repeat(40)}`, ORIGIN)).toEqual({ kind: 'unknown' });
  });
});
