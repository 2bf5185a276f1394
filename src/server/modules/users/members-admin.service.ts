import { csvDocument } from '../../../shared/csv.ts';
import { formatCents, formatUsd } from '../../../shared/money.ts';
import {
  type DeletionPreview,
  MEMBER_ADMIN_MESSAGES,
  MEMBER_CSV_COLUMNS,
  MEMBER_EXPORT_MAX_ROWS,
  MEMBER_PAGE_SIZE,
  MEMBER_RECENT_TRANSFERS,
  type MemberDetail,
  type MemberFilter,
  type MemberLedgerEntry,
  type MemberWithBalance,
  type NonUserList,
  type NonUsersQuery,
  USER_MESSAGES,
  type UserList,
  type UserListQuery,
} from '../../../shared/users.ts';
import { WALLET_LABELS, type Wallet } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { deviceName } from '../auth/device-name.ts';
import { deleteSessionsOfUser } from '../auth/sessions.repository.ts';
import { walletAccountId } from '../wallets/ledger.service.ts';
import { walletBalance } from '../wallets/wallets.service.ts';
import {
  accountsWithOwners,
  countDirectTeam,
  countMatchingMembers,
  countNeverInvested,
  eraseMember,
  historyOf,
  listMembers,
  listNeverInvested,
  liveSessionsOf,
  type MemberRow,
  recentLedgerRowsOf,
  updateUserColumns,
} from './members-admin.repository.ts';
import { findUserById } from './users.repository.ts';
import { toPublicUser } from './users.service.ts';

// The admin's member screens (issue 8): the paged list and its CSV export, one member's detail,
// deleting (or, for a member with money or history, deactivating) and ending a member's sessions.
// Every function starts with the access check; the routes allow admins only as well.

function assertAdmin(asker: SessionUser): void {
  if (asker.user.role !== 'admin') throw forbidden();
}

/** The member with this id, or a 404: admins are not edited, deleted or signed out from these screens. */
async function memberOr404(db: Db, id: string): Promise<UserTable> {
  const row = await findUserById(db, id);
  if (row?.role !== 'user') throw notFound(USER_MESSAGES.noMember);
  return row;
}

const withBalance = (row: MemberRow): MemberWithBalance => ({
  ...toPublicUser(row),
  balance: { business: formatCents(row.business_available), working: formatCents(row.working_available) },
});

/** GET /users/list?page=: members a page at a time, with their available balances. */
export async function memberList(db: Db, asker: SessionUser, query: UserListQuery): Promise<UserList> {
  assertAdmin(asker);
  const limit = MEMBER_PAGE_SIZE;
  const [rows, total] = await Promise.all([
    listMembers(db, query, { offset: (query.page - 1) * limit, limit }),
    countMatchingMembers(db, query),
  ]);
  return {
    allusers: rows.map(withBalance),
    total,
    page: query.page,
    limit,
    total_pages: Math.max(1, Math.ceil(total / limit)),
  };
}

/** GET /users/non/users (the spec's allnonusers): members who never invested, newest first, a page at a time. */
export async function neverInvestedList(
  db: Db,
  asker: SessionUser,
  query: NonUsersQuery,
): Promise<NonUserList> {
  assertAdmin(asker);
  const { page, limit } = query;
  const [rows, total] = await Promise.all([
    listNeverInvested(db, { offset: (page - 1) * limit, limit }),
    countNeverInvested(db),
  ]);
  return {
    allnonusers: rows.map((r) => ({
      id: r.id,
      username: r.username,
      fullname: r.fullname,
      email: r.email,
      joined: r.created_at,
    })),
    total,
    page,
    limit,
    total_pages: Math.max(1, Math.ceil(total / limit)),
  };
}

/** GET /users/export: every member of the current filter (not only the page) as CSV, in the list's order. */
export async function exportMembersCsv(db: Db, asker: SessionUser, filter: MemberFilter): Promise<string> {
  assertAdmin(asker);
  const rows = await listMembers(db, filter, { offset: 0, limit: MEMBER_EXPORT_MAX_ROWS });
  return csvDocument(
    MEMBER_CSV_COLUMNS,
    rows.map((row) => [
      row.id,
      row.fullname,
      row.username,
      row.email,
      row.phone,
      row.status,
      row.is_active,
      row.roi_status,
      row.level_status,
      formatCents(row.business_available),
      formatCents(row.working_available),
      row.refferal_code,
      row.reffer_by,
      row.created_at,
      row.last_login,
    ]),
  );
}

const PLATFORM_LABELS: Record<string, string> = {
  'platform:adjustments': 'Platform adjustments',
  'platform:deposits': 'Platform deposits',
  'platform:withdrawals': 'Platform withdrawals',
  'platform:income': 'Platform income',
  'platform:fees': 'Platform fees',
  'platform:codes': 'Platform activation codes',
};

/** The two wallets by their spec labels; `invested` holds the principal of the member's top-ups. */
const walletLabel = (code: string) =>
  WALLET_LABELS[code as Wallet] ?? (code === 'invested' ? 'Invested' : code);

/** A member's recent ledger transfers, each side named: their own wallet, another member's, or the platform's. */
async function recentTransfersOf(db: Db, userId: string): Promise<MemberLedgerEntry[]> {
  const rows = await recentLedgerRowsOf(db, userId, MEMBER_RECENT_TRANSFERS);
  const mine = new Set([walletAccountId(userId, 'business'), walletAccountId(userId, 'working')]);
  const others = [
    ...new Set(rows.flatMap((r) => [r.debit_account_id, r.credit_account_id]).filter((id) => !mine.has(id))),
  ];
  const owners = new Map((await accountsWithOwners(db, others)).map((a) => [a.id, a]));
  const label = (accountId: string) => {
    if (mine.has(accountId)) return walletLabel(accountId.slice(accountId.lastIndexOf(':') + 1));
    const account = owners.get(accountId);
    if (!account) return accountId;
    if (account.user_id === null) return PLATFORM_LABELS[account.code] ?? account.code;
    return `${account.fullname ?? ''} (${account.email ?? ''}), ${walletLabel(account.code)}`;
  };
  return rows.map((row) => {
    const out = mine.has(row.debit_account_id);
    const into = mine.has(row.credit_account_id);
    return {
      id: row.id,
      kind: row.kind,
      phase: row.phase,
      amount: formatCents(Number(row.amount_cents)),
      direction: out && into ? 'own' : into ? 'in' : 'out',
      from_account: label(row.debit_account_id),
      to_account: label(row.credit_account_id),
      description: row.description,
      created_at: row.created_at,
    };
  });
}

/** GET /users/{id}/detail: the member, balances, sponsor, direct team, recent ledger transfers and live sessions. */
export async function memberDetail(db: Db, asker: SessionUser, id: string): Promise<MemberDetail> {
  assertAdmin(asker);
  const row = await memberOr404(db, id);
  const [balance, sponsor, directTeam, transfers, sessions] = await Promise.all([
    walletBalance(db, id),
    row.sponsor_id ? findUserById(db, row.sponsor_id) : Promise.resolve(undefined),
    countDirectTeam(db, id),
    recentTransfersOf(db, id),
    liveSessionsOf(db, id, new Date().toISOString()),
  ]);
  return {
    singleuser: { ...toPublicUser(row), balance },
    sponsor: sponsor
      ? { id: sponsor.id, fullname: sponsor.fullname, username: sponsor.username, email: sponsor.email }
      : null,
    direct_team: directTeam,
    transfers,
    sessions: sessions.map((session) => ({ ...session, device: deviceName(session.user_agent) })),
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why a member cannot be erased: money in a wallet, ledger rows, payments, members they sponsor. */
async function historyReasons(db: Db, id: string): Promise<string[]> {
  const history = await historyOf(db, id);
  const reasons: string[] = [];
  for (const account of history.balances) {
    if (account.balanceCents !== 0)
      reasons.push(`${walletLabel(account.code)} holds ${formatUsd(account.balanceCents)}`);
    if (account.heldCents !== 0)
      reasons.push(`${walletLabel(account.code)} has ${formatUsd(account.heldCents)} on hold`);
  }
  if (history.ledgerRows > 0) reasons.push(plural(history.ledgerRows, 'ledger transfer', 'ledger transfers'));
  if (history.payments > 0) reasons.push(plural(history.payments, 'crypto payment', 'crypto payments'));
  if (history.referrals > 0) reasons.push(`sponsors ${plural(history.referrals, 'member', 'members')}`);
  return reasons;
}

/** GET /users/{id}/deletion: what DELETE will do, so the confirmation dialog can say it before the admin confirms. */
export async function deletionPreview(db: Db, asker: SessionUser, id: string): Promise<DeletionPreview> {
  assertAdmin(asker);
  await memberOr404(db, id);
  const reasons = await historyReasons(db, id);
  return { outcome: reasons.length > 0 ? 'deactivate' : 'erase', reasons };
}

const isForeignKeyViolation = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

/** Blocks and deactivates a member and ends their sessions, audited: what "delete" does to a member with history. */
async function deactivateIn(trx: Db, admin: SessionUser, row: UserTable, reasons: string[]) {
  await updateUserColumns(trx, row.id, {
    status: 'block',
    is_active: 'inactive',
    updated_at: new Date().toISOString(),
  });
  const ended = await deleteSessionsOfUser(trx, row.id);
  await insertAudit(trx, {
    actorId: admin.user.id,
    action: 'user.deactivate',
    targetType: 'user',
    targetId: row.id,
    before: { status: row.status, is_active: row.is_active },
    after: { status: 'block', is_active: 'inactive', sessions_ended: ended },
    reason: `Deleting was asked; the account was kept because of: ${reasons.join('; ')}`,
  });
  return { message: MEMBER_ADMIN_MESSAGES.deactivated, outcome: 'deactivated' as const };
}

/**
 * DELETE /users/{id}: a member with any money, ledger row, payment or referral is deactivated (blocked,
 * inactive, signed out), never erased, so no ledger row ever loses its owner. A member with no history
 * is erased; a record elsewhere that still names them (the database's foreign keys) turns the erase
 * back into a deactivation. Either way the audit log keeps who, what and the member as they were.
 */
export async function deleteMember(db: Db, admin: SessionUser, id: string) {
  assertAdmin(admin);
  await memberOr404(db, id);
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await memberOr404(trx, id);
      const reasons = await historyReasons(trx, id);
      if (reasons.length > 0) return deactivateIn(trx, admin, row, reasons);
      await eraseMember(trx, id);
      await insertAudit(trx, {
        actorId: admin.user.id,
        action: 'user.delete',
        targetType: 'user',
        targetId: id,
        before: toPublicUser(row),
        after: null,
      });
      return { message: MEMBER_ADMIN_MESSAGES.erased, outcome: 'erased' as const };
    });
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    return db
      .transaction()
      .execute(async (trx) =>
        deactivateIn(trx, admin, await memberOr404(trx, id), [
          'other records that still refer to this member',
        ]),
      );
  }
}

/** DELETE /users/{id}/sessions: signs a member out everywhere at once, audited. */
export async function endMemberSessions(db: Db, admin: SessionUser, id: string) {
  assertAdmin(admin);
  return db.transaction().execute(async (trx) => {
    await memberOr404(trx, id);
    const ended = await deleteSessionsOfUser(trx, id);
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'user.sessions_end',
      targetType: 'user',
      targetId: id,
      after: { sessions_ended: ended },
    });
    return { message: MEMBER_ADMIN_MESSAGES.sessionsEnded, ended };
  });
}
