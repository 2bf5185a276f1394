import { describe, expect, it, vi } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it('is a version-7 UUID that carries the time it was made, to the millisecond', () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const before = Date.now();
    const ms = Number.parseInt(newId().replace('-', '').slice(0, 12), 16);
    expect(Math.abs(ms - before)).toBeLessThan(1000);
  });

  it('sorts in the order ids were made across milliseconds, so new rows land at the end of an index', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) {
        vi.setSystemTime(Date.UTC(2026, 10, 29) + i);
        ids.push(newId());
      }
      expect([...ids].sort()).toEqual(ids);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays unguessable: ids made in the same millisecond differ in their random bits', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.UTC(2026, 10, 29));
      const ids = new Set(Array.from({ length: 1000 }, () => newId()));
      expect(ids.size).toBe(1000);
    } finally {
      vi.useRealTimers();
    }
  });
});
