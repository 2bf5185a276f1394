import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address.ts';

// The key per-address limits count under: IPv6 by its /64, IPv4 by the address.

describe('addressKey', () => {
  it('keys every address of one IPv6 /64 alike, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0000:0000:0000:0abc',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::198.51.100.7',
    ])
      expect(addressKey(address), address).toBe(key);
  });

  it('keys another /64 apart, down to its last bit', () => {
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('keeps IPv4 per address', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.10')).toBe('203.0.113.10');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, in either notation', () => {
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::FFFF:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(addressKey('0:0:0:0:0:ffff:127.0.0.1')).toBe('127.0.0.1');
  });

  it('leaves what is not an address as it is', () => {
    expect(addressKey('')).toBe('');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
