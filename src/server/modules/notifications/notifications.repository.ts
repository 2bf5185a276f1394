import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { NotificationTable } from '../../db/schema.ts';

// The only SQL of notifications. A member sees a notification when it was sent to all members after
// they registered, or when they are among its recipients; their row in notification_recipients (made
// on send for chosen recipients, on first "seen" for an all-members notification) holds seen_at.
// The two inserts every transfer to another member runs (its "Money received" notification) are sql
// templates, as the ledger's statements are (ledger.repository.ts): a built query costs far more.

export type MemberRef = { id: string; created_at: string };
export type MemberNotificationRow = NotificationTable & { seen_at: string | null };

const notificationInsert = (row: NotificationTable) =>
  sql`insert into notifications (id, title, message, users, type, created_by, created_at, link, origin)
    values (${row.id}, ${row.title}, ${row.message}, ${row.users}, ${row.type}, ${row.created_by},
      ${row.created_at}, ${row.link}, ${row.origin})`;

export async function insertNotification(trx: Db, row: NotificationTable): Promise<void> {
  await notificationInsert(row).execute(trx);
}

/** Recipients per statement: one statement binds at most a few thousand values on either dialect. */
const RECIPIENTS_PER_INSERT = 200;

const recipientRows = (notificationId: string, userIds: string[]) =>
  sql.join(userIds.map((userId) => sql`(${notificationId}, ${userId}, null)`));

export async function insertRecipients(trx: Db, notificationId: string, userIds: string[]): Promise<void> {
  for (let i = 0; i < userIds.length; i += RECIPIENTS_PER_INSERT) {
    await sql`insert into notification_recipients (notification_id, user_id, seen_at)
      values ${recipientRows(notificationId, userIds.slice(i, i + RECIPIENTS_PER_INSERT))}`.execute(trx);
  }
}

/**
 * PostgreSQL: the notification, its recipients and the `selected` expressions (its live announcement)
 * in one statement, one round trip where there were three; false, with nothing written, when the
 * recipients need more than one insert (the caller then writes them in turn).
 */
export async function insertNotificationAtOnce(
  trx: Db,
  row: NotificationTable,
  recipientIds: string[],
  selected: RawBuilder<unknown>[],
): Promise<boolean> {
  if (recipientIds.length > RECIPIENTS_PER_INSERT) return false;
  const recipients =
    recipientIds.length > 0
      ? sql`, r as (insert into notification_recipients (notification_id, user_id, seen_at)
        values ${recipientRows(row.id, recipientIds)})`
      : sql``;
  await sql`with n as (${notificationInsert(row)})${recipients}
    select ${selected.length > 0 ? sql.join(selected) : sql`1`}`.execute(trx);
  return true;
}

/** Which of these ids are members (role user); admins and unknown ids are left out. */
export async function existingMemberIds(db: Db, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 500))
      .where('role', '=', 'user')
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

export async function listAllNotifications(
  db: Db,
  limit: number,
  origin: NotificationTable['origin'],
): Promise<NotificationTable[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('origin', '=', origin)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function recipientsOf(db: Db, notificationIds: string[]): Promise<Map<string, string[]>> {
  const byNotification = new Map<string, string[]>();
  if (notificationIds.length === 0) return byNotification;
  const rows = await db
    .selectFrom('notification_recipients as r')
    .innerJoin('notifications as n', 'n.id', 'r.notification_id')
    .select(['r.notification_id', 'r.user_id'])
    .where('r.notification_id', 'in', notificationIds)
    .where('n.users', '=', 0)
    .orderBy('r.user_id')
    .execute();
  for (const row of rows) {
    const list = byNotification.get(row.notification_id) ?? [];
    list.push(row.user_id);
    byNotification.set(row.notification_id, list);
  }
  return byNotification;
}

/** Members' names and e-mails by id (the admin list's recipient column). */
export async function membersByIds(db: Db, ids: string[]) {
  const found: { id: string; fullname: string; email: string }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    found.push(
      ...(await db
        .selectFrom('users')
        .select(['id', 'fullname', 'email'])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute()),
    );
  }
  return found;
}

export async function findNotification(db: Db, id: string): Promise<NotificationTable | undefined> {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

function memberQuery(db: Db, member: MemberRef) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('notification_recipients as r', (join) =>
      join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', member.id),
    )
    .where((eb) =>
      eb.or([
        eb.and([eb('n.users', '=', 1), eb('n.created_at', '>=', member.created_at)]),
        eb('r.user_id', 'is not', null),
      ]),
    );
}

export async function listForMember(
  db: Db,
  member: MemberRef,
  limit: number,
  filter: { unseenPopupsOnly?: boolean } = {},
): Promise<MemberNotificationRow[]> {
  let query = memberQuery(db, member).selectAll('n').select('r.seen_at');
  if (filter.unseenPopupsOnly)
    query = query.where('n.type', '=', 'site_popup').where('r.seen_at', 'is', null);
  return query.orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(limit).execute();
}

export async function findForMember(
  db: Db,
  member: MemberRef,
  id: string,
): Promise<MemberNotificationRow | undefined> {
  return memberQuery(db, member).selectAll('n').select('r.seen_at').where('n.id', '=', id).executeTakeFirst();
}

export async function countUnseen(db: Db, member: MemberRef): Promise<number> {
  const row = await memberQuery(db, member)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('r.seen_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The first "seen" wins: a second call keeps the first time. */
export async function markSeen(trx: Db, notificationId: string, userId: string, now: string): Promise<void> {
  await trx
    .insertInto('notification_recipients')
    .values({ notification_id: notificationId, user_id: userId, seen_at: now })
    .onConflict((oc) =>
      oc
        .columns(['notification_id', 'user_id'])
        .doUpdateSet({ seen_at: now })
        .where('notification_recipients.seen_at', 'is', null),
    )
    .execute();
}

export async function seenAtOf(db: Db, notificationId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('notification_recipients')
    .select('seen_at')
    .where('notification_id', '=', notificationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.seen_at ?? null;
}

export async function deleteNotification(trx: Db, id: string): Promise<boolean> {
  await trx.deleteFrom('notification_recipients').where('notification_id', '=', id).execute();
  const result = await trx.deleteFrom('notifications').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The admin form's user search: members whose e-mail contains the fragment, any case. */
export async function searchMembersByEmail(db: Db, fragment: string, limit: number) {
  const pattern = `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('users')
    .select(['id', 'fullname', 'username', 'email'])
    .where('role', '=', 'user')
    .where(sql<boolean>`lower(email) like ${pattern} escape '\\'`)
    .orderBy('email')
    .limit(limit)
    .execute();
}
