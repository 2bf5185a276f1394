import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordHashCost, verifyPassword } from './passwords.ts';

// The cost a stored password is hashed at is written into the hash itself (PHC string format).
const costOf = (hash: string) => hash.split('$')[3];

describe('password hashes', () => {
  afterEach(() => setPasswordHashCost('production'));

  it('are argon2id at 19 MiB, 2 passes, 1 lane: the production cost, unless set otherwise', async () => {
    const hash = await hashPassword('Correct-Horse-2026');
    expect(hash.startsWith('$argon2id$v=19$')).toBe(true);
    expect(costOf(hash)).toBe('m=19456,p=1,t=2');
    expect(await verifyPassword(hash, 'Correct-Horse-2026')).toBe(true);
    expect(await verifyPassword(hash, 'Correct-Horse-2027')).toBe(false);
  });

  it('at the test cost are still argon2id, and either cost checks a hash made at the other', async () => {
    const strong = await hashPassword('Correct-Horse-2026');
    setPasswordHashCost('test');
    const cheap = await hashPassword('Correct-Horse-2026');
    expect(costOf(cheap)).toBe('m=1024,p=1,t=1');
    expect(await verifyPassword(strong, 'Correct-Horse-2026')).toBe(true);
    setPasswordHashCost('production');
    expect(await verifyPassword(cheap, 'Correct-Horse-2026')).toBe(true);
    expect(await verifyPassword(cheap, 'wrong')).toBe(false);
  });
});
