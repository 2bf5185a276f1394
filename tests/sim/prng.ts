// A seeded PRNG (mulberry32: 32 bits of state, fast, good enough to pick operations, and the same
// numbers on every machine and Node version). Math.random would make a failing run unrepeatable.

export type Rng = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
};

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('nothing to pick from');
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    chance: (p) => next() < p,
  };
}
