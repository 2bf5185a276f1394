import { formatCents } from '../../../shared/money.ts';
import {
  type AdminNotification,
  type Banner,
  type CreateNotificationInput,
  isMemberLink,
  type MemberNotification,
  MONEY_NOTIFICATIONS,
  NOTIFICATION_LINKS,
  NOTIFICATION_MESSAGES,
  type NotificationOrigin,
  type NotificationsHome,
  RECIPIENT_PREVIEW_LIMIT,
  RECIPIENT_SEARCH_LIMIT,
  type RecipientCandidate,
  type RecipientLabel,
} from '../../../shared/notifications.ts';
import { WALLET_LABELS, type Wallet } from '../../../shared/wallets.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { NotificationTable } from '../../db/schema.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { type LiveAudience, publishLive, publishLiveCalls } from '../../http/live-events.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { findUpload, newestUpload } from '../uploads/uploads.repository.ts';
import { storeImage, UPLOADS_URL_PREFIX } from '../uploads/uploads.service.ts';
import {
  countUnseen,
  deleteNotification,
  existingMemberIds,
  findForMember,
  findNotification,
  insertNotification,
  insertNotificationAtOnce,
  insertRecipients,
  listAllNotifications,
  listForMember,
  type MemberNotificationRow,
  type MemberRef,
  markSeen,
  membersByIds,
  recipientsOf,
  searchMembersByEmail,
} from './notifications.repository.ts';

// Notifications (RULES.md "Notifications and tickets"; the decisions are written in
// shared/notifications.ts). The tickets module uses notifyMembers to tell a member about an admin's
// answer, and the money modules the notify* helpers below: keep their signatures. Every change
// announces topic "notifications" on the live channel to the members concerned, after its
// transaction commits.

export const LIVE_TOPIC = 'notifications';
const LIST_LIMIT = 200;
const POPUP_LIMIT = 5;

const toMember = (row: MemberNotificationRow): MemberNotification => ({
  id: row.id,
  notification_id: row.id,
  title: row.title,
  message: row.message,
  users: row.users === 1,
  type: row.type,
  seen: row.seen_at !== null,
  seen_at: row.seen_at,
  created_at: row.created_at,
  link: row.link,
});

const toAdmin = (
  row: NotificationTable,
  recipients: string[],
  labels: Map<string, RecipientLabel> = new Map(),
): AdminNotification => ({
  id: row.id,
  notification_id: row.id,
  title: row.title,
  message: row.message,
  users: row.users === 1,
  type: row.type,
  recipients,
  created_at: row.created_at,
  link: row.link,
  origin: row.origin,
  recipient_preview: recipients.slice(0, RECIPIENT_PREVIEW_LIMIT).flatMap((id) => {
    const label = labels.get(id);
    return label ? [label] : [];
  }),
});

const audienceOf = (row: Pick<NotificationTable, 'users'>, recipients: string[]): LiveAudience =>
  row.users === 1 ? { role: 'user' } : { userIds: recipients };

async function insertWithRecipients(
  trx: Db,
  input: {
    title: string;
    message: string;
    type: NotificationTable['type'];
    allUsers: boolean;
    recipientIds: string[];
    createdBy: string | null;
    origin: NotificationOrigin;
    link: string | null;
  },
): Promise<NotificationTable> {
  // A bad link is our own bug, never the member's input: fail the caller's transaction loudly.
  if (input.link !== null && !isMemberLink(input.link))
    throw new Error(`a notification link must be a path under /user/: ${input.link}`);
  const row: NotificationTable = {
    id: newId(),
    title: input.title,
    message: input.message,
    users: input.allUsers ? 1 : 0,
    type: input.type,
    created_by: input.createdBy,
    created_at: new Date().toISOString(),
    link: input.link,
    origin: input.origin,
  };
  const announce = { topic: LIVE_TOPIC, audience: audienceOf(row, input.recipientIds) };
  const recipientIds = input.allUsers ? [] : input.recipientIds;
  const calls = publishLiveCalls(trx, announce);
  if (calls && (await insertNotificationAtOnce(trx, row, recipientIds, calls))) return row;
  await insertNotification(trx, row);
  await insertRecipients(trx, row.id, recipientIds);
  await publishLive(trx, announce);
  return row;
}

/**
 * For other modules (tickets, money): a system notification to these members, written in the caller's
 * transaction and announced live only once that transaction commits (never when it rolls back).
 * `link` is the path under /user/ that tapping it opens.
 */
export async function notifyMembers(
  trx: Db,
  input: {
    recipientIds: string[];
    title: string;
    message: string;
    type?: 'notification' | 'site_popup';
    createdBy?: string | null;
    link?: string | null;
  },
): Promise<void> {
  const recipientIds = [...new Set(input.recipientIds)];
  if (recipientIds.length === 0) return;
  await insertWithRecipients(trx, {
    title: input.title,
    message: input.message,
    type: input.type ?? 'notification',
    allUsers: false,
    recipientIds,
    createdBy: input.createdBy ?? null,
    origin: 'system',
    link: input.link ?? null,
  });
}

const walletText = (wallet: Wallet) => {
  const label = WALLET_LABELS[wallet];
  return label.endsWith('Wallet') ? label : `${label} wallet`;
};

/** Money another member sent has reached this member (a completed transfer, or an approved held one). */
export async function notifyMoneyReceived(
  trx: Db,
  input: {
    recipientId: string;
    senderName: string;
    amountCents: number;
    wallet: Wallet;
    description: string | null;
  },
): Promise<void> {
  await notifyMembers(trx, {
    recipientIds: [input.recipientId],
    title: MONEY_NOTIFICATIONS.moneyReceivedTitle,
    message: MONEY_NOTIFICATIONS.moneyReceived({
      senderName: input.senderName,
      amount: formatCents(input.amountCents),
      wallet: walletText(input.wallet),
      description: input.description,
    }),
    link: NOTIFICATION_LINKS.moneyReceived,
  });
}

/** A crypto payment was credited to the member's Active Wallet (by the provider's news, or by an admin). */
export async function notifyDepositCredited(
  trx: Db,
  input: { memberId: string; amountCents: number; paymentId: string; byAdmin?: string },
): Promise<void> {
  const text = {
    amount: formatCents(input.amountCents),
    paymentId: input.paymentId,
    wallet: walletText('business'),
  };
  await notifyMembers(trx, {
    recipientIds: [input.memberId],
    title: MONEY_NOTIFICATIONS.depositCreditedTitle,
    message: input.byAdmin
      ? MONEY_NOTIFICATIONS.partialDepositCredited(text)
      : MONEY_NOTIFICATIONS.depositCredited(text),
    createdBy: input.byAdmin ?? null,
    link: NOTIFICATION_LINKS.depositCredited,
  });
}

/** Support credited or debited the member's wallet. The admin's reason stays in the audit log. */
export async function notifyBalanceAdjusted(
  trx: Db,
  input: {
    memberId: string;
    direction: 'credit' | 'debit';
    amountCents: number;
    wallet: Wallet;
    adminId: string;
  },
): Promise<void> {
  await notifyMembers(trx, {
    recipientIds: [input.memberId],
    title: MONEY_NOTIFICATIONS.balanceAdjustedTitle,
    message: MONEY_NOTIFICATIONS.balanceAdjusted({
      direction: input.direction,
      amount: formatCents(input.amountCents),
      wallet: walletText(input.wallet),
    }),
    createdBy: input.adminId,
    link: NOTIFICATION_LINKS.balanceAdjusted,
  });
}

export async function createNotification(
  db: Db,
  admin: SessionUser,
  input: CreateNotificationInput,
): Promise<AdminNotification> {
  return db.transaction().execute(async (trx) => {
    if (!input.users) {
      const members = await existingMemberIds(trx, input.recipients);
      if (input.recipients.some((id) => !members.has(id)))
        throw badRequest([{ field: 'recipients', message: NOTIFICATION_MESSAGES.recipientUnknown }]);
    }
    const row = await insertWithRecipients(trx, {
      title: input.title,
      message: input.message,
      type: input.type,
      allUsers: input.users,
      recipientIds: input.recipients,
      createdBy: admin.user.id,
      origin: 'broadcast',
      link: null,
    });
    const created = toAdmin(row, input.recipients, await labelsOf(trx, input.recipients));
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'notification.create',
      targetType: 'notification',
      targetId: row.id,
      after: created,
    });
    return created;
  });
}

/** Names for the first chosen recipients of each notification (the admin list shows them). */
async function labelsOf(db: Db, ids: string[]): Promise<Map<string, RecipientLabel>> {
  return new Map((await membersByIds(db, ids)).map((m) => [m.id, m]));
}

/**
 * Newest first, up to LIST_LIMIT of each origin: the app's own notifications (one per money event)
 * must not push the admins' broadcasts out of the list.
 */
export async function listNotificationsForAdmin(db: Db): Promise<AdminNotification[]> {
  const [broadcasts, system] = await Promise.all([
    listAllNotifications(db, LIST_LIMIT, 'broadcast'),
    listAllNotifications(db, LIST_LIMIT, 'system'),
  ]);
  const rows = [...broadcasts, ...system].sort(
    (a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id),
  );
  const recipients = await recipientsOf(
    db,
    rows.filter((r) => r.users === 0).map((r) => r.id),
  );
  const previewIds = [...recipients.values()].flatMap((ids) => ids.slice(0, RECIPIENT_PREVIEW_LIMIT));
  const labels = await labelsOf(db, [...new Set(previewIds)]);
  return rows.map((row) => toAdmin(row, recipients.get(row.id) ?? [], labels));
}

const memberRef = (asker: SessionUser): MemberRef => ({
  id: asker.user.id,
  created_at: asker.user.created_at,
});

export async function listMyNotifications(db: Db, asker: SessionUser): Promise<MemberNotification[]> {
  return (await listForMember(db, memberRef(asker), LIST_LIMIT)).map(toMember);
}

/** A member's list: the member themself, or any member for an admin; anyone else's id is a 404. */
export async function listNotificationsOfUser(
  db: Db,
  asker: SessionUser,
  userId: string,
): Promise<MemberNotification[]> {
  if (asker.user.role !== 'admin') {
    if (userId !== asker.user.id) throw notFound(NOTIFICATION_MESSAGES.notFound);
    return listMyNotifications(db, asker);
  }
  const member = await db
    .selectFrom('users')
    .select(['id', 'created_at'])
    .where('id', '=', userId)
    .where('role', '=', 'user')
    .executeTakeFirst();
  if (!member) throw notFound(NOTIFICATION_MESSAGES.notFound);
  return (await listForMember(db, member, LIST_LIMIT)).map(toMember);
}

export async function notificationsHome(db: Db, asker: SessionUser): Promise<NotificationsHome> {
  const member = memberRef(asker);
  const [unread, popups] = await Promise.all([
    countUnseen(db, member),
    listForMember(db, member, POPUP_LIMIT, { unseenPopupsOnly: true }),
  ]);
  return { unread, popups: popups.map(toMember) };
}

export async function markNotificationSeen(
  db: Db,
  asker: SessionUser,
  id: string,
  userId: string | undefined,
): Promise<MemberNotification> {
  // Only a member has a seen state; another member's id (in the path or the body) is a 404.
  if (asker.user.role !== 'user') throw forbidden(NOTIFICATION_MESSAGES.adminsHaveNone);
  if (userId !== undefined && userId !== asker.user.id) throw notFound(NOTIFICATION_MESSAGES.notFound);
  const member = memberRef(asker);
  return db.transaction().execute(async (trx) => {
    const found = await findForMember(trx, member, id);
    if (!found) throw notFound(NOTIFICATION_MESSAGES.notFound);
    if (found.seen_at === null) {
      await markSeen(trx, id, member.id, new Date().toISOString());
      // The member's other tabs update their unread count.
      await publishLive(trx, { topic: LIVE_TOPIC, audience: { userIds: [member.id] } });
    }
    const after = await findForMember(trx, member, id);
    return toMember(after ?? found);
  });
}

export async function removeNotification(db: Db, admin: SessionUser, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findNotification(trx, id);
    if (!row) throw notFound(NOTIFICATION_MESSAGES.notFound);
    const recipients = (await recipientsOf(trx, [id])).get(id) ?? [];
    await deleteNotification(trx, id);
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'notification.delete',
      targetType: 'notification',
      targetId: id,
      before: toAdmin(row, recipients),
    });
    await publishLive(trx, { topic: LIVE_TOPIC, audience: audienceOf(row, recipients) });
  });
}

export async function uploadBanner(
  db: Db,
  dataDir: string,
  admin: SessionUser,
  bytes: Buffer,
): Promise<Banner> {
  // The image work happens outside any transaction: on SQLite a transaction holds the one connection.
  const stored = await storeImage(db, dataDir, { bytes, ownerId: admin.user.id, purpose: 'banner' });
  await db.transaction().execute(async (trx) => {
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'notification.banner',
      targetType: 'upload',
      targetId: stored.name,
    });
    await publishLive(trx, { topic: LIVE_TOPIC, audience: { role: 'user' } });
  });
  const row = await findUpload(db, stored.name);
  return { name: stored.name, url: stored.url, created_at: row?.created_at ?? new Date().toISOString() };
}

export async function currentBanner(db: Db): Promise<Banner | null> {
  const row = await newestUpload(db, 'banner');
  return row ? { name: row.name, url: `${UPLOADS_URL_PREFIX}${row.name}`, created_at: row.created_at } : null;
}

export async function searchRecipients(db: Db, fragment: string): Promise<RecipientCandidate[]> {
  const text = fragment.trim();
  if (text.length === 0) return [];
  return searchMembersByEmail(db, text, RECIPIENT_SEARCH_LIMIT);
}
