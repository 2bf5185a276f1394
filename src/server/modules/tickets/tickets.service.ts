import { randomBytes, randomInt } from 'node:crypto';
import { NOTIFICATION_LINKS } from '../../../shared/notifications.ts';
import {
  type AdminTicketList,
  statusAfterResponse,
  TICKET_IMAGES_PER_HOUR,
  TICKET_MESSAGES,
  TICKETS_PER_HOUR,
  type Ticket,
  type TicketCreate,
  type TicketListQuery,
  type TicketResponse,
  type TicketResponseCreate,
  type TicketResponseResult,
  type TicketResult,
  type TicketStatus,
  ticketStatusLabel,
} from '../../../shared/tickets.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { publishLive } from '../../http/live-events.ts';
import { consume } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { type Outcome, runOnce } from '../idempotency/idempotency.service.ts';
import { notifyMembers } from '../notifications/notifications.service.ts';
import { findUpload } from '../uploads/uploads.repository.ts';
import { UPLOADS_URL_PREFIX } from '../uploads/uploads.service.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  findTicketRow,
  insertResponse,
  insertTicket,
  listTickets,
  responsesOf,
  type TicketResponseRow,
  type TicketRow,
  ticketsOfMember,
  updateTicketIfStatus,
} from './tickets.repository.ts';

// docs/rules.md "Support tickets". A member reads and answers only their own tickets (anyone else's id is a
// 404, as if it did not exist); admins read and answer all of them and alone change a status, except
// that a member may close their own ticket. Every change and its notification commit together.

/** The live topic, and the first segment of the client's ticket query keys. */
export const TICKETS_TOPIC = 'tickets';

const HOUR_MS = 60 * 60 * 1000;

const isAdmin = (asker: SessionUser) => asker.user.role === 'admin';
const roleOf = (asker: SessionUser): 'user' | 'admin' => (isAdmin(asker) ? 'admin' : 'user');

/** Where an uploaded image is served (GET /api/v1/uploads/:name, to its owner and admins). */
export const imageUrl = (name: string | null) => (name ? `${UPLOADS_URL_PREFIX}${name}` : null);

export function toTicket(row: TicketRow): Ticket {
  return {
    ticket_id: row.ticket_id,
    status: row.status,
    user_id: row.user_id,
    member_name: row.member_name,
    member_email: row.member_email,
    subject: row.subject,
    category: row.category as Ticket['category'],
    message: row.message,
    image_url: imageUrl(row.image),
    last_reply_by: row.last_reply_by,
    last_reply_at: row.last_reply_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toResponse(row: TicketResponseRow, reader: SessionUser): TicketResponse {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    message: row.message,
    image_url: imageUrl(row.image),
    author_role: row.author_role,
    // Members talk to "Support", not to a named member of staff; admins see who answered.
    author_name:
      row.author_role === 'admin' && !isAdmin(reader) ? TICKET_MESSAGES.supportName : row.author_fullname,
    created_at: row.created_at,
  };
}

// Crockford's base32 without I, L, O and U: easy to read out on the phone to support.
const ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const newTicketId = () =>
  `T-${Array.from({ length: 8 }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('')}`;

let responseCounter = 0;
/** Time-ordered, so two answers within one millisecond still keep the order they were written in. */
function newResponseId(nowMs: number): string {
  responseCounter = (responseCounter + 1) % 36 ** 4;
  return `${nowMs.toString(36).padStart(10, '0')}${responseCounter.toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
}

/** The ticket if the asker may see it: their own, or any for an admin. Anything else is "not found". */
async function visibleTicket(db: Db, asker: SessionUser, ticketId: string): Promise<TicketRow> {
  const row = await findTicketRow(db, ticketId);
  if (!row || (!isAdmin(asker) && row.user_id !== asker.user.id)) throw notFound(TICKET_MESSAGES.notFound);
  return row;
}

/**
 * Tells the ticket's member (every tab) and every admin to refetch their ticket screens, once the
 * transaction commits. The event names only the topic: nothing a reader may not see travels with it.
 */
async function announce(trx: Db, memberId: string): Promise<void> {
  await publishLive(trx, { topic: TICKETS_TOPIC, audience: { userIds: [memberId] } });
  await publishLive(trx, { topic: TICKETS_TOPIC, audience: { role: 'admin' } });
}

/** An image a message refers to must have been uploaded for this member's tickets. */
async function checkImage(db: Db, name: string | undefined, memberId: string): Promise<string | null> {
  if (name === undefined) return null;
  const upload = await findUpload(db, name);
  if (upload?.purpose !== 'ticket' || upload.owner_id !== memberId)
    throw badRequest([{ field: 'image', message: TICKET_MESSAGES.imageUnknown }]);
  return name;
}

export async function createTicket(
  db: Db,
  asker: SessionUser,
  input: TicketCreate,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  if (isAdmin(asker)) throw forbidden(TICKET_MESSAGES.membersOnly);
  const memberId = asker.user.id;
  await consume(db, `tickets:create:${memberId}`, { max: TICKETS_PER_HOUR, windowMs: HOUR_MS });
  return runOnce(db, memberId, idempotencyKey, { route: 'ticket', input }, async (trx) => {
    const image = await checkImage(trx, input.image, memberId);
    const now = new Date().toISOString();
    const ticketId = newTicketId();
    await insertTicket(trx, {
      ticket_id: ticketId,
      user_id: memberId,
      subject: input.subject,
      category: input.category,
      message: input.message,
      image,
      status: 'open',
      last_reply_by: 'user',
      last_reply_at: now,
      created_at: now,
      updated_at: now,
    });
    await announce(trx, memberId);
    const row = await findTicketRow(trx, ticketId);
    if (!row) throw new Error('ticket vanished inside its own transaction');
    const body: TicketResult = { message: TICKET_MESSAGES.created, ticket: toTicket(row) };
    return { statusCode: 201, body };
  });
}

const excerpt = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A ticket row whose status is the one last read; re-read when a racing change moved it. */
async function withFreshStatus<T>(
  trx: Db,
  ticketId: string,
  attempt: (row: TicketRow) => Promise<T | undefined>,
): Promise<T> {
  for (let tries = 0; tries < 3; tries += 1) {
    const row = await findTicketRow(trx, ticketId);
    if (!row) throw notFound(TICKET_MESSAGES.notFound);
    const done = await attempt(row);
    if (done !== undefined) return done;
  }
  throw conflict(TICKET_MESSAGES.fallback);
}

export async function addResponse(
  db: Db,
  asker: SessionUser,
  ticketId: string,
  input: TicketResponseCreate,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  const seen = await visibleTicket(db, asker, ticketId);
  const by = roleOf(asker);
  return runOnce(db, asker.user.id, idempotencyKey, { route: 'ticket-response', ticketId, input }, (trx) =>
    withFreshStatus(trx, ticketId, async (row) => {
      const next = statusAfterResponse(row.status, by);
      if (next === 'refused') throw new AppError(422, TICKET_MESSAGES.closedNoResponses);
      const image = await checkImage(trx, input.image, seen.user_id);
      const nowMs = Date.now();
      const now = new Date(nowMs).toISOString();
      const moved = await updateTicketIfStatus(trx, ticketId, row.status, {
        status: next,
        last_reply_by: by,
        last_reply_at: now,
        updated_at: now,
      });
      if (!moved) return undefined;
      const id = newResponseId(nowMs);
      await insertResponse(trx, {
        id,
        ticket_id: ticketId,
        author_id: asker.user.id,
        author_role: by,
        message: input.message,
        image,
        created_at: now,
      });
      if (by === 'admin') {
        // RULES.md: the member is told of every answer from support, in the answer's own transaction.
        await notifyMembers(trx, {
          recipientIds: [row.user_id],
          title: TICKET_MESSAGES.notifyAnswerTitle,
          message: `${row.ticket_id} "${excerpt(row.subject, 80)}": ${excerpt(input.message)}`,
          type: 'notification',
          createdBy: asker.user.id,
          link: NOTIFICATION_LINKS.ticket(row.ticket_id),
        });
      }
      await announce(trx, row.user_id);
      const response: TicketResponse = {
        id,
        ticket_id: ticketId,
        message: input.message,
        image_url: imageUrl(image),
        author_role: by,
        author_name: asker.user.fullname,
        created_at: now,
      };
      const after = await findTicketRow(trx, ticketId);
      if (!after) throw notFound(TICKET_MESSAGES.notFound);
      const body: TicketResponseResult = {
        message: TICKET_MESSAGES.responseAdded,
        response,
        ticket: toTicket(after),
      };
      return { statusCode: 201, body };
    }),
  );
}

/**
 * Admins set any status; a member may only close their own ticket. Setting the status it already has
 * changes nothing and answers the same. An admin's change is audited and the member is told.
 */
export async function changeStatus(
  db: Db,
  asker: SessionUser,
  ticketId: string,
  status: TicketStatus,
  message: string = TICKET_MESSAGES.statusUpdated,
): Promise<TicketResult> {
  await visibleTicket(db, asker, ticketId);
  if (!isAdmin(asker) && status !== 'closed') throw forbidden(TICKET_MESSAGES.memberMayOnlyClose);
  return db.transaction().execute((trx) =>
    withFreshStatus(trx, ticketId, async (row) => {
      if (row.status !== status) {
        const now = new Date().toISOString();
        if (!(await updateTicketIfStatus(trx, ticketId, row.status, { status, updated_at: now })))
          return undefined;
        if (isAdmin(asker)) {
          await insertAudit(trx, {
            actorId: asker.user.id,
            action: 'ticket.status',
            targetType: 'ticket',
            targetId: ticketId,
            before: { status: row.status },
            after: { status },
          });
          await notifyMembers(trx, {
            recipientIds: [row.user_id],
            title: TICKET_MESSAGES.notifyStatusTitle,
            message: `${row.ticket_id} "${excerpt(row.subject, 80)}" is now ${ticketStatusLabel(status)}.`,
            type: 'notification',
            createdBy: asker.user.id,
            link: NOTIFICATION_LINKS.ticket(row.ticket_id),
          });
        }
        await announce(trx, row.user_id);
      }
      const after = await findTicketRow(trx, ticketId);
      if (!after) throw notFound(TICKET_MESSAGES.notFound);
      return { message, ticket: toTicket(after) };
    }),
  );
}

export async function singleTicket(
  db: Db,
  asker: SessionUser,
  ticketId: string,
): Promise<{ ticket: Ticket }> {
  return { ticket: toTicket(await visibleTicket(db, asker, ticketId)) };
}

export async function ticketResponses(
  db: Db,
  asker: SessionUser,
  ticketId: string,
): Promise<{ responses: TicketResponse[] }> {
  await visibleTicket(db, asker, ticketId);
  return { responses: (await responsesOf(db, ticketId)).map((row) => toResponse(row, asker)) };
}

/** GET /tickets/{userId}: a member's own tickets (an admin may read any member's). */
export async function memberTickets(
  db: Db,
  asker: SessionUser,
  userId: string,
): Promise<{ tickets: Ticket[] }> {
  if (!isAdmin(asker) && asker.user.id !== userId) throw notFound(TICKET_MESSAGES.memberNotFound);
  if (isAdmin(asker) && (await findUserById(db, userId))?.role !== 'user')
    throw notFound(TICKET_MESSAGES.memberNotFound);
  return { tickets: (await ticketsOfMember(db, userId)).map(toTicket) };
}

/** GET /tickets (admin: every ticket) and GET /support/list (a member: their own; an admin: every ticket). */
export async function searchTickets(
  db: Db,
  asker: SessionUser,
  query: TicketListQuery,
): Promise<AdminTicketList> {
  const { rows, total } = await listTickets(db, {
    userId: isAdmin(asker) ? undefined : asker.user.id,
    status: query.status,
    search: query.search || undefined,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { tickets: rows.map(toTicket), total, page: query.page, limit: query.limit };
}

/** Which member an image upload is for: the asker, or for a ticket the asker may see, its member. */
export async function imageOwnerFor(
  db: Db,
  asker: SessionUser,
  ticketId: string | undefined,
): Promise<string> {
  // Support answers many tickets a day: ten times a member's allowance.
  const max = isAdmin(asker) ? TICKET_IMAGES_PER_HOUR * 10 : TICKET_IMAGES_PER_HOUR;
  await consume(db, `tickets:image:${asker.user.id}`, { max, windowMs: HOUR_MS });
  if (ticketId !== undefined) {
    const row = await visibleTicket(db, asker, ticketId);
    if (row.status === 'closed') throw new AppError(422, TICKET_MESSAGES.closedNoResponses);
    return row.user_id;
  }
  // Support attaches images only to answers: an image of theirs must belong to a ticket's member.
  if (isAdmin(asker)) throw badRequest([{ field: 'ticket_id', message: TICKET_MESSAGES.notFound }]);
  return asker.user.id;
}
