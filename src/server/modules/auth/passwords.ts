import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';

// argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane.
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, HASH_OPTIONS);

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
