import { describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES, bep20Problem, toChecksumAddress, trc20Problem } from './payout-address.ts';

// The payout address rule against published vectors: EIP-55's own examples, and Tron addresses whose
// base58check is known good (the USDT contract and a documentation address).

describe('BEP20 addresses (EIP-55)', () => {
  const eip55 = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('accepts the EIP-55 examples and computes their checksums', () => {
    for (const address of eip55) {
      expect(bep20Problem(address)).toBeNull();
      if (
        address.slice(2) !== address.slice(2).toLowerCase() &&
        address.slice(2) !== address.slice(2).toUpperCase()
      )
        expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    }
  });

  it('accepts all-small and all-capital forms, which carry no checksum', () => {
    expect(bep20Problem('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBeNull();
    expect(bep20Problem('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBeNull();
  });

  it('refuses a wrong mix of capitals, and a wrong shape', () => {
    expect(bep20Problem('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(ADDRESS_MESSAGES.bep20Checksum);
    expect(bep20Problem('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBe(ADDRESS_MESSAGES.bep20Invalid);
    expect(bep20Problem('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00')).toBe(ADDRESS_MESSAGES.bep20Invalid);
    expect(bep20Problem('0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(ADDRESS_MESSAGES.bep20Invalid);
  });
});

describe('TRC20 addresses (base58check, version 0x41)', () => {
  it('accepts known good addresses', () => {
    expect(trc20Problem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
    expect(trc20Problem('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toBeNull();
  });

  it('refuses a one-letter typo by its checksum, and a wrong shape or version', () => {
    expect(trc20Problem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(ADDRESS_MESSAGES.trc20Checksum);
    expect(trc20Problem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe(ADDRESS_MESSAGES.trc20Invalid);
    expect(trc20Problem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60')).toBe(ADDRESS_MESSAGES.trc20Invalid);
    // 34 base58 characters starting with T, decoding to 25 bytes whose first is not 0x41.
    expect(trc20Problem('T111111111111111111111111111111111')).toBe(ADDRESS_MESSAGES.trc20Invalid);
  });
});
