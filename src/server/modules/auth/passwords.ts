import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';

// argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane. Test servers may ask for the least
// argon2id takes (PASSWORD_HASH_COST=test, refused in production): a hash records its own cost, so the
// check of a password is the same code whichever made it.
export const PRODUCTION_HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;
const TEST_HASH_OPTIONS = { ...PRODUCTION_HASH_OPTIONS, memoryCost: 1024, timeCost: 1 } as const;

let hashOptions: typeof PRODUCTION_HASH_OPTIONS | typeof TEST_HASH_OPTIONS = PRODUCTION_HASH_OPTIONS;
/** Set once at start from the configuration (buildApp). */
export function setPasswordHashCost(cost: 'production' | 'test'): void {
  hashOptions = cost === 'test' ? TEST_HASH_OPTIONS : PRODUCTION_HASH_OPTIONS;
  dummyHash = undefined;
}

export const hashPassword = (password: string) => argon2.hash(password, hashOptions);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummyHash, password);
}

const common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
/** One of the ~49,000 passwords most often seen in breaches (zxcvbn's list). */
export const isCommonPassword = (password: string) => common.has(password.toLowerCase());
