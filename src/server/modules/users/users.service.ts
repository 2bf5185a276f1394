import { randomInt } from 'node:crypto';
import type { MemberEdit } from '../../../shared/member-edit.ts';
import { AUTH } from '../../../shared/messages.ts';
import { formatCents } from '../../../shared/money.ts';
import { type MemberCounts, type PublicUser, USER_MESSAGES } from '../../../shared/users.ts';
import { WALLET_MESSAGES } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../db/ids.ts';
import type { UserTable } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { consume } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { deleteSessionsOfUser } from '../auth/sessions.repository.ts';
import { recordPayoutAddressChange } from '../profile/payout-addresses.service.ts';
import { teamTotalsOnJoin } from '../team/team-totals.repository.ts';
import { walletBalance } from '../wallets/wallets.service.ts';
import {
  type EditableColumns,
  isUsernameTakenByOther,
  updateUserColumns,
} from './members-admin.repository.ts';
import {
  countMembers,
  findMemberByUsername,
  findUserByEmail,
  findUserById,
  insertUser,
} from './users.repository.ts';

/** The API's view of a user: every spec field but the password (API.md "Accounts"). */
export function toPublicUser(row: UserTable): PublicUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    status: row.status,
    is_active: row.is_active,
    roi_status: row.roi_status,
    level_status: row.level_status,
    address: row.address,
    business: formatCents(Number(row.business_cents)),
    business_balance: formatCents(Number(row.business_balance_cents)),
    fullname: row.fullname,
    phone: row.phone,
    reffer_by: row.reffer_by,
    refferal_code: row.refferal_code,
    last_login: row.last_login,
    created_at: row.created_at,
    verify_at: row.verify_at,
    updated_at: row.updated_at,
    activation_date: row.activation_date,
    paid_member: Boolean(row.paid_member),
    level_month: Number(row.level_month),
    roi_day: Number(row.roi_day),
    total_team: Number(row.total_team),
    bep20: row.bep20,
    trc20: row.trc20,
    self_trade_pair: row.self_trade_pair,
    self_trade_updated_at: row.self_trade_updated_at,
  };
}

// No 0/O or 1/I: codes are read aloud and typed from screenshots.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const newReferralCode = () =>
  Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

type NewUser = Pick<UserTable, 'username' | 'email' | 'password_hash' | 'role' | 'fullname' | 'phone'> &
  Partial<Pick<UserTable, 'reffer_by' | 'sponsor_id'>>;

/**
 * Inserts a user with a fresh id and referral code, retrying on the (rare) code collision, in a
 * transaction of its own with the teams above them (team-totals.repository.ts).
 */
export async function createUser(db: Db, input: NewUser): Promise<UserTable> {
  const now = new Date().toISOString();
  for (let attempt = 0; ; attempt++) {
    const row: UserTable = {
      id: newId(),
      username: input.username,
      email: input.email.toLowerCase(),
      password_hash: input.password_hash,
      role: input.role,
      status: 'unblock',
      is_active: 'inactive',
      roi_status: 'open',
      level_status: 'open',
      address: null,
      business_cents: 0,
      business_balance_cents: 0,
      fullname: input.fullname,
      phone: input.phone,
      reffer_by: input.reffer_by ?? null,
      sponsor_id: input.sponsor_id ?? null,
      refferal_code: newReferralCode(),
      last_login: null,
      created_at: now,
      verify_at: null,
      updated_at: now,
      activation_date: null,
      paid_member: 0,
      level_month: 0,
      roi_day: 0,
      total_team: 0,
      bep20: null,
      trc20: null,
      self_trade_pair: null,
      self_trade_updated_at: null,
    };
    try {
      // The team totals move with the sign-up, in its transaction: a user exists only with them counted.
      await db.transaction().execute(async (trx) => {
        await insertUser(trx, row);
        await teamTotalsOnJoin(trx, row.id);
      });
      return row;
    } catch (error) {
      // A username or e-mail clash is the caller's to report; only a code clash is retried.
      if (!isUniqueViolation(error) || attempt >= 4 || !String(error).includes('refferal_code')) throw error;
    }
  }
}

export async function memberCounts(db: Db, asker: SessionUser, now = new Date()): Promise<MemberCounts> {
  if (asker.user.role !== 'admin') throw forbidden();
  const startOfDay = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
  ).toISOString();
  return countMembers(db, startOfDay);
}

/**
 * The recipient lookup: a member by exact e-mail, showing only what the transfer form needs. Admins
 * are never found, and a signed-in person may look up at most 60 e-mails a minute (no directory harvesting).
 */
/** GET /users: a member to send money to, by e-mail or by username (the e-mail answered only for an e-mail). */
export async function lookupRecipient(
  db: Db,
  asker: SessionUser,
  query: { email?: string; username?: string },
) {
  await consume(db, `lookup:${asker.user.id}`, { max: 60, windowMs: 60_000 });
  if (query.email !== undefined) {
    const found = await findUserByEmail(db, query.email);
    if (found?.role !== 'user') throw notFound(WALLET_MESSAGES.noUserWithEmail);
    return {
      emailuser: { id: found.id, fullname: found.fullname, username: found.username, email: found.email },
    };
  }
  const found = await findMemberByUsername(db, query.username ?? '');
  if (!found) throw notFound(WALLET_MESSAGES.noUserWithUsername);
  return { emailuser: found };
}

/** GET /users/{id}: a member reads only themself (anyone else is a 404); an admin reads anyone. */
export async function singleUser(db: Db, asker: SessionUser, id: string) {
  if (asker.user.role !== 'admin' && asker.user.id !== id) throw notFound(USER_MESSAGES.noMember);
  const row = await findUserById(db, id);
  if (!row) throw notFound(USER_MESSAGES.noMember);
  return {
    singleuser: {
      ...toPublicUser(row),
      ...(row.role === 'user' ? { balance: await walletBalance(db, row.id) } : {}),
    },
  };
}

/** The edit form's fields as columns: amounts in cents, cleared texts as null. */
function toColumns(input: MemberEdit): EditableColumns {
  const columns: EditableColumns = {};
  if (input.username !== undefined) columns.username = input.username;
  if (input.email !== undefined) columns.email = input.email;
  if (input.status !== undefined) columns.status = input.status;
  if (input.is_active !== undefined) columns.is_active = input.is_active;
  if (input.roi_status !== undefined) columns.roi_status = input.roi_status;
  if (input.level_status !== undefined) columns.level_status = input.level_status;
  if (input.address !== undefined) columns.address = input.address;
  if (input.business !== undefined) columns.business_cents = input.business;
  if (input.business_balance !== undefined) columns.business_balance_cents = input.business_balance;
  if (input.fullname !== undefined) columns.fullname = input.fullname;
  if (input.phone !== undefined) columns.phone = input.phone;
  if (input.bep20 !== undefined) columns.bep20 = input.bep20;
  if (input.trc20 !== undefined) columns.trc20 = input.trc20;
  return columns;
}

/** A column's value as the API and the audit log show it (money as "12.50"). */
function auditValue(column: keyof EditableColumns, value: unknown): [string, unknown] {
  if (column === 'business_cents') return ['business', formatCents(Number(value))];
  if (column === 'business_balance_cents') return ['business_balance', formatCents(Number(value))];
  return [column, value];
}

/**
 * PUT /users/{id} (admin): the spec's edit form. Only what differs is written and audited with before
 * and after. Blocking ends every session of the member at once (RULES.md "Accounts"). business and
 * business_balance are display and override figures on the user record: no wallet balance changes here,
 * money moves only through the ledger (POST /admin/adjustments, with a reason).
 */
export async function updateMember(db: Db, admin: SessionUser, id: string, input: MemberEdit) {
  if (admin.user.role !== 'admin') throw forbidden();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await findUserById(trx, id);
      if (row?.role !== 'user') throw notFound(USER_MESSAGES.noMember);
      const wanted = toColumns(input);
      const changes: EditableColumns = {};
      for (const [key, value] of Object.entries(wanted) as [keyof EditableColumns, unknown][]) {
        const current = key.endsWith('_cents') ? Number(row[key]) : row[key];
        if (current !== value) Object.assign(changes, { [key]: value });
      }
      const clashes = [
        ...(changes.username && (await isUsernameTakenByOther(trx, changes.username, id))
          ? [{ field: 'username', message: AUTH.usernameTaken }]
          : []),
        ...(changes.email && (await findUserByEmail(trx, changes.email))
          ? [{ field: 'email', message: AUTH.emailTaken }]
          : []),
      ];
      if (clashes[0]) throw conflict(clashes[0].message, clashes);

      const now = new Date();
      await updateUserColumns(trx, id, { ...changes, updated_at: now.toISOString() });
      if (changes.status === 'block') await deleteSessionsOfUser(trx, id);
      // Set by support (and audited below): usable for withdrawals at once (RULES.md).
      for (const network of ['bep20', 'trc20'] as const)
        if (changes[network] !== undefined)
          await recordPayoutAddressChange(trx, {
            userId: id,
            network,
            actorId: admin.user.id,
            by: 'admin',
            now,
          });
      const keys = Object.keys(changes) as (keyof EditableColumns)[];
      if (keys.length > 0) {
        await insertAudit(trx, {
          actorId: admin.user.id,
          action: 'user.update',
          targetType: 'user',
          targetId: id,
          before: Object.fromEntries(keys.map((k) => auditValue(k, row[k]))),
          after: Object.fromEntries(keys.map((k) => auditValue(k, changes[k]))),
        });
      }
      return { message: USER_MESSAGES.updated };
    });
  } catch (error) {
    // Two saves racing for one name: the database's unique index decides.
    if (isUniqueViolation(error)) {
      const field = String(error).includes('email') ? 'email' : 'username';
      const message = field === 'email' ? AUTH.emailTaken : AUTH.usernameTaken;
      throw conflict(message, [{ field, message }]);
    }
    throw error;
  }
}
