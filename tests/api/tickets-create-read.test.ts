import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '../../src/shared/messages.ts';
import {
  TICKET_MESSAGE_MAX,
  TICKET_MESSAGES,
  TICKET_SUBJECT_MAX,
  TICKETS_PER_HOUR,
} from '../../src/shared/tickets.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Spec 7 "Tickets": POST /tickets, GET /tickets/{userId}, GET /tickets/single/{ticketId}, GET /tickets
// (admin), GET /ticket-responses/{ticketId}. A member reads only their own tickets (anyone else's id is
// a 404); admins read all; members get 403 on the admin list. Members in this file: 5.

let server: TestServer;
let admin: ApiClient;
type Member = Awaited<ReturnType<typeof signedInMember>>;
let alice: Member;
let bob: Member;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  alice = await signedInMember(server.baseUrl, { fullname: 'Alice Quarry' });
  bob = await signedInMember(server.baseUrl, { fullname: 'Bob Lantern' });
});
afterAll(async () => server?.stop());

const body = (overrides: Record<string, unknown> = {}) => ({
  subject: 'My deposit has not arrived',
  category: 'deposit',
  message: 'I paid 100 USDT an hour ago and my Active Wallet still shows 0.',
  ...overrides,
});

const ticketRows = () => server.db.selectFrom('tickets').selectAll().orderBy('ticket_id').execute();

const open = async (member: Member, overrides: Record<string, unknown> = {}) => {
  const res = await member.client.post('/tickets', body(overrides));
  expect(res.status, res.text).toBe(201);
  return res.body.ticket as { ticket_id: string; status: string; subject: string; updated_at: string };
};

describe('POST /tickets', () => {
  it('opens a ticket for the signed-in member with the spec message', async () => {
    const res = await alice.client.post('/tickets', body({ subject: '  Padded subject  ' }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: 'Ticket created successfully!',
      ticket: {
        ticket_id: expect.stringMatching(/^T-[0-9A-HJKMNP-TV-Z]{8}$/),
        status: 'open',
        user_id: alice.auth.id,
        member_name: 'Alice Quarry',
        member_email: alice.member.email,
        subject: 'Padded subject',
        category: 'deposit',
        message: body().message,
        image_url: null,
        last_reply_by: 'user',
        last_reply_at: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(TICKET_MESSAGES.created).toBe('Ticket created successfully!');
    const row = await server.db
      .selectFrom('tickets')
      .selectAll()
      .where('ticket_id', '=', res.body.ticket.ticket_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: alice.auth.id, status: 'open', subject: 'Padded subject' });
  });

  it('takes the member from the session, whatever the body names', async () => {
    const res = await bob.client.post('/tickets', body({ user_id: alice.auth.id, status: 'closed' }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.ticket).toMatchObject({ user_id: bob.auth.id, status: 'open' });
  });

  it('refuses a missing or too long subject, category or message with field errors, and stores nothing', async () => {
    const before = await ticketRows();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ subject: '' }, 'subject', TICKET_MESSAGES.subjectRequired],
      [{ subject: '    ' }, 'subject', TICKET_MESSAGES.subjectRequired],
      [{ subject: undefined }, 'subject', TICKET_MESSAGES.subjectRequired],
      [{ subject: 'x'.repeat(TICKET_SUBJECT_MAX + 1) }, 'subject', TICKET_MESSAGES.subjectTooLong],
      [{ category: '' }, 'category', TICKET_MESSAGES.categoryRequired],
      [{ category: 'lottery' }, 'category', TICKET_MESSAGES.categoryRequired],
      [{ message: '' }, 'message', TICKET_MESSAGES.messageRequired],
      [{ message: 'y'.repeat(TICKET_MESSAGE_MAX + 1) }, 'message', TICKET_MESSAGES.messageTooLong],
      [{ image: '../../platform.sqlite' }, 'image', TICKET_MESSAGES.imageUnknown],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await alice.client.post('/tickets', body(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.errors).toContainEqual({ field, message });
    }
    const empty = await alice.client.post('/tickets', {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['subject', 'category', 'message']),
    );
    expect(await ticketRows()).toEqual(before);
  });

  it('is for members: an admin gets 403, a visitor 401, a call without the CSRF header 403', async () => {
    const before = await ticketRows();
    const byAdmin = await admin.post('/tickets', body());
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe(GENERIC.forbidden);
    const visitor = await new ApiClient(server.baseUrl).post('/tickets', body());
    expect(visitor.status).toBe(401);
    const noCsrf = await alice.client.request('POST', '/tickets', { body: body(), csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(await ticketRows()).toEqual(before);
  });

  it('opens one ticket for a repeated Idempotency-Key, and refuses the key with another body (409)', async () => {
    const key = randomUUID();
    const first = await alice.client.post('/tickets', body({ subject: 'Sent twice' }), {
      'Idempotency-Key': key,
    });
    expect(first.status).toBe(201);
    const again = await alice.client.post('/tickets', body({ subject: 'Sent twice' }), {
      'Idempotency-Key': key,
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const rows = (await ticketRows()).filter((t) => t.subject === 'Sent twice');
    expect(rows).toHaveLength(1);
    const other = await alice.client.post('/tickets', body({ subject: 'Something else' }), {
      'Idempotency-Key': key,
    });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(WALLET_MESSAGES.idempotencyReused);
    expect((await ticketRows()).filter((t) => t.subject === 'Something else')).toHaveLength(0);
  });
});

describe('too many new tickets', () => {
  it(`refuses a member's ticket beyond ${TICKETS_PER_HOUR} an hour with 429 and Retry-After, others unaffected`, async () => {
    const busy = await signedInMember(server.baseUrl);
    for (let i = 0; i < TICKETS_PER_HOUR; i += 1) await open(busy, { subject: `Ticket ${i}` });
    const before = await ticketRows();
    const res = await busy.client.post('/tickets', body({ subject: 'One too many' }));
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(GENERIC.tooManyRequests);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(await ticketRows()).toEqual(before);
    // Another member still opens theirs.
    expect((await bob.client.post('/tickets', body({ subject: 'Still fine' }))).status).toBe(201);
  });
});

describe('reading tickets', () => {
  let carol: Member;
  let dave: Member;
  let carolFirst: string;
  let carolSecond: string;
  let daveTicket: string;
  beforeAll(async () => {
    carol = await signedInMember(server.baseUrl, { fullname: 'Carol Meadow' });
    dave = await signedInMember(server.baseUrl, { fullname: 'Dave Harbour' });
    carolFirst = (await open(carol, { subject: 'Carol first', category: 'account' })).ticket_id;
    carolSecond = (await open(carol, { subject: 'Carol second', category: 'withdrawal' })).ticket_id;
    daveTicket = (await open(dave, { subject: 'Dave 100% lost', category: 'transfer' })).ticket_id;
  });

  it('GET /tickets/{userId}: a member reads their own, most recently active first, as `tickets`', async () => {
    const res = await carol.client.get(`/tickets/${carol.auth.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['tickets']);
    expect(res.body.tickets.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([
      carolSecond,
      carolFirst,
    ]);
    // An answer makes the older ticket the most recently active one.
    expect(
      (await carol.client.post(`/tickets/${carolFirst}/responses`, { message: 'Any news?' })).status,
    ).toBe(201);
    const after = await carol.client.get(`/tickets/${carol.auth.id}`);
    expect(after.body.tickets.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([
      carolFirst,
      carolSecond,
    ]);
  });

  it("GET /tickets/{userId}: another member's id is a 404; an admin reads any member's, not a non-member's", async () => {
    const res = await carol.client.get(`/tickets/${dave.auth.id}`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Dave');
    const byAdmin = await admin.get(`/tickets/${dave.auth.id}`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.tickets.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([daveTicket]);
    const adminId = (await admin.get('/auth/session')).body.admin.id;
    expect((await admin.get(`/tickets/${adminId}`)).status).toBe(404);
    expect((await admin.get('/tickets/no-such-member')).status).toBe(404);
  });

  it('GET /tickets/single/{ticketId}: the owner and admins read it as `ticket`; anyone else gets a 404', async () => {
    const own = await dave.client.get(`/tickets/single/${daveTicket}`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ ticket: expect.objectContaining({ ticket_id: daveTicket, status: 'open' }) });
    const byAdmin = await admin.get(`/tickets/single/${daveTicket}`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.ticket.member_email).toBe(dave.member.email);
    const stranger = await carol.client.get(`/tickets/single/${daveTicket}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: TICKET_MESSAGES.notFound });
    expect((await carol.client.get('/tickets/single/T-00000000')).body).toEqual(stranger.body);
    expect((await new ApiClient(server.baseUrl).get(`/tickets/single/${daveTicket}`)).status).toBe(401);
  });

  it('GET /ticket-responses/{ticketId}: the thread as `responses`, only for the owner and admins', async () => {
    const own = await carol.client.get(`/ticket-responses/${carolFirst}`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      responses: [
        {
          id: expect.any(String),
          ticket_id: carolFirst,
          message: 'Any news?',
          image_url: null,
          author_role: 'user',
          author_name: 'Carol Meadow',
          created_at: expect.any(String),
        },
      ],
    });
    expect((await admin.get(`/ticket-responses/${carolFirst}`)).body).toEqual(own.body);
    const stranger = await dave.client.get(`/ticket-responses/${carolFirst}`);
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain('Any news?');
  });

  it('GET /tickets (admin): every ticket, by status, by search, a page at a time', async () => {
    const all = await admin.get('/tickets?limit=200');
    expect(all.status).toBe(200);
    const ids = all.body.tickets.map((t: { ticket_id: string }) => t.ticket_id);
    expect(ids).toEqual(expect.arrayContaining([carolFirst, carolSecond, daveTicket]));
    expect(all.body.total).toBe(ids.length);
    expect(all.body).toMatchObject({ page: 1, limit: 200 });

    await admin.put(`/tickets/${carolSecond}/status`, { status: 'resolved' });
    const resolved = await admin.get('/tickets?status=resolved');
    expect(resolved.body.tickets.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([carolSecond]);
    expect(resolved.body.total).toBe(1);

    const search = async (text: string) =>
      (await admin.get(`/tickets?search=${encodeURIComponent(text)}`)).body.tickets.map(
        (t: { ticket_id: string }) => t.ticket_id,
      );
    expect(await search('CAROL FIRST')).toEqual([carolFirst]);
    expect(await search(dave.member.email.toUpperCase())).toEqual([daveTicket]);
    expect(await search('harbour')).toEqual([daveTicket]);
    expect(await search(daveTicket.toLowerCase())).toEqual([daveTicket]);
    // % and _ are taken literally, not as wildcards.
    expect(await search('100%')).toEqual([daveTicket]);
    expect(await search('%')).toEqual([daveTicket]);
    expect(await search('Carol_first')).toEqual([]);
    const both = await admin.get(`/tickets?status=resolved&search=${encodeURIComponent('carol')}`);
    expect(both.body.tickets.map((t: { ticket_id: string }) => t.ticket_id)).toEqual([carolSecond]);

    // The status change made carolSecond the most recently active: the pages follow the list as it is now.
    const now = (await admin.get('/tickets?limit=200')).body.tickets.map(
      (t: { ticket_id: string }) => t.ticket_id,
    );
    expect(now[0]).toBe(carolSecond);
    const page1 = await admin.get('/tickets?limit=2&page=1');
    const page2 = await admin.get('/tickets?limit=2&page=2');
    expect(page1.body.tickets).toHaveLength(2);
    expect(page1.body.total).toBe(all.body.total);
    const paged = [...page1.body.tickets, ...page2.body.tickets].map(
      (t: { ticket_id: string }) => t.ticket_id,
    );
    expect(paged).toEqual(now.slice(0, 4));
    expect(paged).toHaveLength(4);
  });

  it('GET /tickets refuses members (403) and bad filters (400)', async () => {
    const member = await carol.client.get('/tickets');
    expect(member.status).toBe(403);
    expect(member.text).not.toContain('Dave');
    expect((await new ApiClient(server.baseUrl).get('/tickets')).status).toBe(401);
    const badStatus = await admin.get('/tickets?status=waiting');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors).toContainEqual({ field: 'status', message: TICKET_MESSAGES.statusInvalid });
    expect((await admin.get('/tickets?page=0')).status).toBe(400);
    expect((await admin.get('/tickets?limit=201')).status).toBe(400);
    expect((await admin.get(`/tickets?search=${'a'.repeat(101)}`)).status).toBe(400);
  });
});
