import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';

export async function findUserByEmail(db: Db, email: string): Promise<UserTable | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** A member (never an admin) by username, whatever its case (usernames are unique whatever their case). */
export async function findMemberByUsername(db: Db, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'fullname', 'username'])
    .where('role', '=', 'user')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserTable | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByReferralCode(db: Db, code: string): Promise<UserTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('refferal_code', '=', code.toUpperCase())
    .executeTakeFirst();
}

export async function isUsernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** The root sponsor: the oldest admin account, under which members without a referral code join. */
export async function findRootAdmin(db: Db): Promise<UserTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'admin')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: UserTable): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function setLastLogin(db: Db, id: string, atIso: string): Promise<void> {
  await db.updateTable('users').set({ last_login: atIso }).where('id', '=', id).execute();
}

export async function countMembers(db: Db, sinceIso: string) {
  const row = await db
    .selectFrom('users')
    .where('role', '=', 'user')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('is_active', '=', 'active').then(1).else(0).end()).as('active'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'block').then(1).else(0).end()).as('blocked'),
      eb.fn.sum<number>(eb.case().when('created_at', '>=', sinceIso).then(1).else(0).end()).as('joinedToday'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  const active = Number(row.active ?? 0);
  return {
    total,
    active,
    inactive: total - active,
    blocked: Number(row.blocked ?? 0),
    joinedToday: Number(row.joinedToday ?? 0),
  };
}

export type TransferParty = Pick<UserTable, 'id' | 'role' | 'status' | 'is_active' | 'fullname' | 'email'>;
