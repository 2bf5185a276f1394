import { type RawBuilder, sql } from 'kysely';
import { type Db, isPostgres } from '../../db/database.ts';
import type { PushSubscriptionTable } from '../../db/schema.ts';

// The only SQL of push subscriptions. One row per endpoint (unique): the browser's subscription on
// one device, owned by the member who first registered it.

export type StoredSubscription = Pick<
  PushSubscriptionTable,
  'id' | 'user_id' | 'endpoint' | 'p256dh' | 'auth'
>;

/**
 * Stores a subscription, or refreshes the keys of the member's own row with that endpoint, in one
 * guarded write. Answers false when the endpoint is stored for another member: that row stays as it is.
 */
export async function upsertOwnSubscription(db: Db, row: PushSubscriptionTable): Promise<boolean> {
  const written = await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('endpoint')
        .doUpdateSet({ p256dh: row.p256dh, auth: row.auth, user_agent: row.user_agent })
        .where('push_subscriptions.user_id', '=', row.user_id),
    )
    .returning('id')
    .executeTakeFirst();
  return written !== undefined;
}

/** Deletes the member's subscriptions beyond the newest `keep` (by when each was first stored). */
export async function trimSubscriptions(db: Db, userId: string, keep: number): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where(
      'id',
      'not in',
      db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(keep),
    )
    .execute();
}

/** Deletes the member's own subscription with this endpoint; answers whether there was one. */
export async function deleteOwnSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteSubscriptionById(db: Db, id: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

const columns = ['push_subscriptions.id', 'user_id', 'endpoint', 'p256dh', 'auth'] as const;

/**
 * A member's subscriptions as one JSON array, for a statement that reads members (`userId`: that
 * statement's expression for the member's id): a transfer reads its recipient's with the members, in
 * the round trip it makes anyway. subscriptionsFromJson turns the value back into rows.
 */
export function subscriptionsAsJson(db: Db, userId: RawBuilder<unknown>): RawBuilder<unknown> {
  return isPostgres(db)
    ? sql`(select coalesce(json_agg(json_build_object('id', p.id, 'user_id', p.user_id,
        'endpoint', p.endpoint, 'p256dh', p.p256dh, 'auth', p.auth)), '[]'::json)
        from push_subscriptions p where p.user_id = ${userId})`
    : sql`(select json_group_array(json_object('id', p.id, 'user_id', p.user_id,
        'endpoint', p.endpoint, 'p256dh', p.p256dh, 'auth', p.auth))
        from push_subscriptions p where p.user_id = ${userId})`;
}

/** What subscriptionsAsJson read: PostgreSQL's driver parses json, SQLite gives its text; none for null. */
export function subscriptionsFromJson(value: unknown): StoredSubscription[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as StoredSubscription[];
}

/** Every subscription of these members (a notification to chosen members, a held transfer approved). */
export async function subscriptionsOfMembers(db: Db, memberIds: string[]): Promise<StoredSubscription[]> {
  const rows: StoredSubscription[] = [];
  for (let i = 0; i < memberIds.length; i += 500) {
    const ids = sql.join(memberIds.slice(i, i + 500));
    const found = await sql<StoredSubscription>`select id, user_id, endpoint, p256dh, auth
      from push_subscriptions where user_id in (${ids})`.execute(db);
    rows.push(...found.rows);
  }
  return rows;
}

/** Every member's subscriptions (an all-members notification); admins' are left out. */
export async function subscriptionsOfAllMembers(db: Db): Promise<StoredSubscription[]> {
  return db
    .selectFrom('push_subscriptions')
    .innerJoin('users', 'users.id', 'push_subscriptions.user_id')
    .select(columns)
    .where('users.role', '=', 'user')
    .execute();
}
