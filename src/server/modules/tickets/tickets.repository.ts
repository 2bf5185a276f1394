import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TicketResponseTable, TicketTable } from '../../db/schema.ts';

// The only SQL of support tickets. A ticket is never deleted; its thread only grows.

function ticketRows(db: Db) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('t')
    .select(['u.fullname as member_name', 'u.email as member_email']);
}

export type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketRows>['execute']>>[number];

export async function insertTicket(trx: Db, row: TicketTable): Promise<void> {
  await trx.insertInto('tickets').values(row).execute();
}

export async function findTicketRow(db: Db, ticketId: string): Promise<TicketRow | undefined> {
  return ticketRows(db).where('t.ticket_id', '=', ticketId).executeTakeFirst();
}

/** `like` with the caller's text taken literally (its % and _ escaped), case-insensitive in both dialects. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type TicketFilter = {
  userId?: string;
  status?: string;
  search?: string;
  offset: number;
  limit: number;
};

/** Tickets by member, status and search, most recently active first, a page at a time. */
export async function listTickets(
  db: Db,
  filter: TicketFilter,
): Promise<{ rows: TicketRow[]; total: number }> {
  const filtered = <Q extends ReturnType<typeof ticketRows>>(query: Q): Q => {
    let q = query;
    if (filter.userId) q = q.where('t.user_id', '=', filter.userId) as Q;
    if (filter.status) q = q.where('t.status', '=', filter.status as TicketTable['status']) as Q;
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
      q = q.where((eb) =>
        eb.or([
          like('t.ticket_id'),
          like('t.subject'),
          like('t.message'),
          like('u.email'),
          like('u.fullname'),
        ]),
      ) as Q;
    }
    return q;
  };
  const [rows, count] = await Promise.all([
    filtered(ticketRows(db))
      .orderBy('t.updated_at', 'desc')
      .orderBy('t.ticket_id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    filtered(ticketRows(db))
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Every ticket of one member, most recently active first. */
export async function ticketsOfMember(db: Db, userId: string): Promise<TicketRow[]> {
  return ticketRows(db)
    .where('t.user_id', '=', userId)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.ticket_id', 'desc')
    .execute();
}

/**
 * Changes a ticket only while its status is still the one the caller read: an answer and a status
 * change racing on PostgreSQL cannot both act on a status that is no longer true. False when it moved.
 */
export async function updateTicketIfStatus(
  trx: Db,
  ticketId: string,
  expectedStatus: TicketTable['status'],
  changes: Partial<Pick<TicketTable, 'status' | 'last_reply_by' | 'last_reply_at' | 'updated_at'>>,
): Promise<boolean> {
  const result = await trx
    .updateTable('tickets')
    .set(changes)
    .where('ticket_id', '=', ticketId)
    .where('status', '=', expectedStatus)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertResponse(trx: Db, row: TicketResponseTable): Promise<void> {
  await trx.insertInto('ticket_responses').values(row).execute();
}

function responseRows(db: Db) {
  return db
    .selectFrom('ticket_responses as r')
    .innerJoin('users as a', 'a.id', 'r.author_id')
    .selectAll('r')
    .select(['a.fullname as author_fullname']);
}

export type TicketResponseRow = Awaited<ReturnType<ReturnType<typeof responseRows>['execute']>>[number];

/** A ticket's thread, oldest first. */
export async function responsesOf(db: Db, ticketId: string): Promise<TicketResponseRow[]> {
  return responseRows(db)
    .where('r.ticket_id', '=', ticketId)
    .orderBy('r.created_at', 'asc')
    .orderBy('r.id', 'asc')
    .execute();
}
