import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { registerSchema } from '../../../shared/auth.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { hashPassword, isCommonPassword } from '../auth/passwords.ts';
import { findRootAdmin, findUserByEmail } from './users.repository.ts';
import { createUser } from './users.service.ts';

// Admins are never made by sign-up: only at first start (from ADMIN_EMAIL / ADMIN_PASSWORD) or by the CLI.

export type NewAdmin = { email: string; password?: string; username?: string; fullname?: string };

/** Creates an admin; returns the password used, which is generated when none is given. */
export async function createAdmin(
  db: Db,
  input: NewAdmin,
): Promise<{ admin: UserTable; password: string; generated: boolean }> {
  const generated = !input.password;
  const password = input.password ?? randomBytes(15).toString('base64url');
  const parsed = v.safeParse(v.pick(registerSchema, ['email', 'password', 'username']), {
    email: input.email,
    password,
    username: input.username ?? `admin_${randomBytes(3).toString('hex')}`,
  });
  if (!parsed.success)
    throw new Error(`cannot create the admin: ${parsed.issues.map((i) => i.message).join('; ')}`);
  if (isCommonPassword(password)) throw new Error('cannot create the admin: the password is too common');
  if (await findUserByEmail(db, parsed.output.email))
    throw new Error(`an account with ${parsed.output.email} exists already`);
  const admin = await createUser(db, {
    username: parsed.output.username,
    email: parsed.output.email,
    password_hash: await hashPassword(password),
    role: 'admin',
    fullname: input.fullname ?? 'Administrator',
    phone: '',
  });
  return { admin, password, generated };
}

/** At start: when no admin exists, creates the first (the root sponsor). Safe when several servers start at once. */
export async function ensureFirstAdmin(
  db: Db,
  env: { adminEmail: string | undefined; adminPassword: string | undefined },
  print: (line: string) => void,
): Promise<void> {
  if (await findRootAdmin(db)) return;
  const email = env.adminEmail ?? 'admin@example.com';
  try {
    const { password, generated } = await createAdmin(db, {
      email,
      password: env.adminPassword,
      username: 'admin',
    });
    print(`Created the first admin: ${email}`);
    if (generated) print(`Its generated password, shown this once: ${password}`);
  } catch (error) {
    // Another instance won the race: its admin was committed after our look-up, and createAdmin refused
    // on its own look-up of the e-mail ("exists already") or on the unique index at the insert. Either
    // way the first admin exists, which is all this asks.
    if (await findRootAdmin(db)) return;
    throw error;
  }
}
