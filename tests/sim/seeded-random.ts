import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { rng } from './prng.ts';

// The services name rows with crypto.randomUUID (through newId, src/server/db/ids.ts, whose version-7
// ids take their time from Date) and make codes with crypto.randomInt. Rows are read in
// id order in places (an income run pays investments chunk by chunk in id order, so a crash mid-run paid
// a different set each run), so random ids made the same seed a different run. During a simulated run
// both come from the seed instead, as Date comes from the simulated clock: Node's
// syncBuiltinESMExports() hands the seeded functions to every `import { randomUUID } from 'node:crypto'`.
// Everything else (randomBytes for session tokens and salts) stays random: nothing is ordered by it.

type RandomInt = typeof crypto.randomInt;

/** Seeds randomUUID and randomInt; returns the function that puts Node's own back. */
export function seedRandom(seed: number): () => void {
  const own = { randomUUID: crypto.randomUUID, randomInt: crypto.randomInt };
  const r = rng((seed ^ 0x2f6b_a7c3) >>> 0);
  const word = () => Math.floor(r.next() * 0x1_0000_0000);
  const hex8 = () => word().toString(16).padStart(8, '0');
  crypto.randomUUID = (() => {
    const a = hex8();
    const b = hex8();
    const c = hex8();
    const d = hex8();
    // Version 4, variant 10xx, as Node's would be.
    const variant = ((Number.parseInt(c[0] as string, 16) & 0x3) | 0x8).toString(16);
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  }) as typeof crypto.randomUUID;
  crypto.randomInt = ((...args: unknown[]) => {
    const callback =
      typeof args.at(-1) === 'function' ? (args.pop() as (e: null, n: number) => void) : undefined;
    const [min, max] = args.length === 1 ? [0, args[0] as number] : [args[0] as number, args[1] as number];
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min)
      return own.randomInt(min, max); // Node's own error
    const n = min + Math.floor(r.next() * (max - min));
    if (!callback) return n;
    process.nextTick(callback, null, n);
    return undefined;
  }) as RandomInt;
  syncBuiltinESMExports();
  return () => {
    crypto.randomUUID = own.randomUUID;
    crypto.randomInt = own.randomInt;
    syncBuiltinESMExports();
  };
}
