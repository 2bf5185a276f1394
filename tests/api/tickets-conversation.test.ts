import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES } from '../../src/shared/tickets.ts';
import { countOf, openStream } from '../fixtures/live-stream.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Spec 7: POST /tickets/{ticketId}/responses and PUT /tickets/{ticketId}/status; spec 4 messages.
// docs/rules.md "Support tickets": support's first answer puts an open ticket in progress; a member's answer
// reopens a resolved ticket; a closed ticket takes no answers (422); admins set any status (audited,
// the member is notified); a member may only close their own ticket. The member is notified of every
// admin answer, in the answer's transaction. Members in this file: 5.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
type Member = Awaited<ReturnType<typeof signedInMember>>;
let member: Member;
let stranger: Member;
beforeAll(async () => {
  // A short heartbeat: a stream the test closed is noticed (and let go) within a second.
  server = await startServer({ LIVE_HEARTBEAT_MS: '1000' });
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (await admin.get('/auth/session')).body.admin.id;
  member = await signedInMember(server.baseUrl, { fullname: 'Mia Cooper' });
  stranger = await signedInMember(server.baseUrl, { fullname: 'Sam Stranger' });
});
afterAll(async () => server?.stop());

const openTicket = async (who: Member = member, subject = 'Withdrawal pending for two days') => {
  const res = await who.client.post('/tickets', {
    subject,
    category: 'withdrawal',
    message: 'My withdrawal request is still pending.',
  });
  expect(res.status, res.text).toBe(201);
  return res.body.ticket.ticket_id as string;
};

const answer = (client: ApiClient, ticketId: string, message: string) =>
  client.post(`/tickets/${ticketId}/responses`, { message });
const setStatus = (client: ApiClient, ticketId: string, status: string) =>
  client.put(`/tickets/${ticketId}/status`, { status });
const statusOf = async (ticketId: string) =>
  (
    await server.db
      .selectFrom('tickets')
      .select('status')
      .where('ticket_id', '=', ticketId)
      .executeTakeFirstOrThrow()
  ).status;
const responseRows = (ticketId: string) =>
  server.db.selectFrom('ticket_responses').selectAll().where('ticket_id', '=', ticketId).execute();
const notificationsOf = async (who: Member) => {
  const res = await who.client.get(`/notifications/user/${who.auth.id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.notifications as { title: string; message: string; seen: boolean; type: string }[];
};
const auditsOf = (ticketId: string) =>
  server.db.selectFrom('audit_log').selectAll().where('target_id', '=', ticketId).execute();

describe('answers in the thread', () => {
  it('an admin answers: the spec message, the ticket goes in progress, the member is notified', async () => {
    const ticketId = await openTicket();
    const before = await notificationsOf(member);
    const res = await answer(admin, ticketId, 'We are checking your withdrawal now.');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: 'Response added successfully!',
      response: {
        id: expect.any(String),
        ticket_id: ticketId,
        message: 'We are checking your withdrawal now.',
        image_url: null,
        author_role: 'admin',
        author_name: expect.any(String),
        created_at: expect.any(String),
      },
      ticket: expect.objectContaining({ ticket_id: ticketId, status: 'in_progress', last_reply_by: 'admin' }),
    });
    expect(TICKET_MESSAGES.responseAdded).toBe('Response added successfully!');
    expect(await statusOf(ticketId)).toBe('in_progress');

    const after = await notificationsOf(member);
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({
      title: TICKET_MESSAGES.notifyAnswerTitle,
      type: 'notification',
      seen: false,
    });
    expect(after[0]?.message).toContain(ticketId);
    expect(after[0]?.message).toContain('We are checking your withdrawal now.');
    // Nobody else is told.
    expect((await notificationsOf(stranger)).some((n) => n.message.includes(ticketId))).toBe(false);

    // The member reads the thread; support's answer is signed "Support", the admin sees the name.
    const thread = await member.client.get(`/ticket-responses/${ticketId}`);
    expect(thread.body.responses).toEqual([
      expect.objectContaining({ author_role: 'admin', author_name: TICKET_MESSAGES.supportName }),
    ]);
    const adminView = await admin.get(`/ticket-responses/${ticketId}`);
    expect(adminView.body.responses[0].author_name).not.toBe(TICKET_MESSAGES.supportName);
  });

  it('the member answers their own ticket; the thread keeps the order of writing', async () => {
    const ticketId = await openTicket();
    expect((await answer(member.client, ticketId, 'one')).status).toBe(201);
    expect((await answer(admin, ticketId, 'two')).status).toBe(201);
    const notified = (await notificationsOf(member)).length;
    const third = await answer(member.client, ticketId, 'three');
    expect(third.status).toBe(201);
    expect(third.body.ticket).toMatchObject({ status: 'in_progress', last_reply_by: 'user' });
    expect(third.body.response).toMatchObject({ author_role: 'user', author_name: 'Mia Cooper' });
    // The member's own answers notify nobody (support sees them in its list).
    expect((await notificationsOf(member)).length).toBe(notified);
    const thread = await member.client.get(`/ticket-responses/${ticketId}`);
    expect(thread.body.responses.map((r: { message: string }) => r.message)).toEqual(['one', 'two', 'three']);
  });

  it("refuses an answer to another member's ticket with a 404 and writes nothing", async () => {
    const ticketId = await openTicket();
    const res = await answer(stranger.client, ticketId, 'Let me in');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: TICKET_MESSAGES.notFound });
    expect(await responseRows(ticketId)).toEqual([]);
    expect((await answer(member.client, 'T-NOTHERE', 'hello')).status).toBe(404);
  });

  it('refuses an empty or too long answer (400) and a visitor (401)', async () => {
    const ticketId = await openTicket();
    const empty = await answer(member.client, ticketId, '   ');
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toContainEqual({ field: 'message', message: TICKET_MESSAGES.messageRequired });
    const long = await answer(member.client, ticketId, 'z'.repeat(5001));
    expect(long.status).toBe(400);
    expect(long.body.errors).toContainEqual({ field: 'message', message: TICKET_MESSAGES.messageTooLong });
    expect((await answer(new ApiClient(server.baseUrl), ticketId, 'hi')).status).toBe(401);
    expect(await responseRows(ticketId)).toEqual([]);
    expect(await statusOf(ticketId)).toBe('open');
  });

  it("a member's answer reopens a resolved ticket; support's answer leaves a resolved ticket resolved", async () => {
    const ticketId = await openTicket();
    expect((await setStatus(admin, ticketId, 'resolved')).status).toBe(200);
    expect((await answer(admin, ticketId, 'One more note from us.')).body.ticket.status).toBe('resolved');
    const res = await answer(member.client, ticketId, 'It happened again.');
    expect(res.status).toBe(201);
    expect(res.body.ticket.status).toBe('open');
    expect(await statusOf(ticketId)).toBe('open');
  });

  it('a closed ticket takes no answer from anyone (422) until support reopens it', async () => {
    const ticketId = await openTicket();
    expect((await setStatus(admin, ticketId, 'closed')).status).toBe(200);
    const notified = (await notificationsOf(member)).length;
    for (const client of [member.client, admin]) {
      const res = await answer(client, ticketId, 'Hello?');
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(TICKET_MESSAGES.closedNoResponses);
    }
    expect(await responseRows(ticketId)).toEqual([]);
    expect((await notificationsOf(member)).length).toBe(notified);
    expect((await setStatus(admin, ticketId, 'open')).status).toBe(200);
    expect((await answer(member.client, ticketId, 'Thanks for reopening')).status).toBe(201);
  });
});

describe('PUT /tickets/{ticketId}/status', () => {
  it('an admin sets each status with the spec message; audited; the member is notified', async () => {
    const ticketId = await openTicket();
    for (const status of ['in_progress', 'resolved', 'closed', 'open'] as const) {
      const before = (await notificationsOf(member)).length;
      const res = await setStatus(admin, ticketId, status);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        message: 'Ticket status updated successfully!',
        ticket: expect.objectContaining({ ticket_id: ticketId, status }),
      });
      expect(await statusOf(ticketId)).toBe(status);
      const notes = await notificationsOf(member);
      expect(notes).toHaveLength(before + 1);
      expect(notes[0]).toMatchObject({ title: TICKET_MESSAGES.notifyStatusTitle });
      expect(notes[0]?.message).toContain(ticketId);
    }
    expect(TICKET_MESSAGES.statusUpdated).toBe('Ticket status updated successfully!');
    const audits = await auditsOf(ticketId);
    expect(audits.map((a) => [a.actor_id, a.action, a.before_json, a.after_json])).toEqual(
      expect.arrayContaining([
        [adminId, 'ticket.status', '{"status":"open"}', '{"status":"in_progress"}'],
        [adminId, 'ticket.status', '{"status":"in_progress"}', '{"status":"resolved"}'],
        [adminId, 'ticket.status', '{"status":"resolved"}', '{"status":"closed"}'],
        [adminId, 'ticket.status', '{"status":"closed"}', '{"status":"open"}'],
      ]),
    );
    expect(audits).toHaveLength(4);
  });

  it('setting the status a ticket already has changes nothing and tells nobody', async () => {
    const ticketId = await openTicket();
    const before = (await notificationsOf(member)).length;
    const res = await setStatus(admin, ticketId, 'open');
    expect(res.status).toBe(200);
    expect(res.body.ticket.status).toBe('open');
    expect(await auditsOf(ticketId)).toEqual([]);
    expect((await notificationsOf(member)).length).toBe(before);
  });

  it('a member may close their own ticket, and set no other status (403)', async () => {
    const ticketId = await openTicket();
    for (const status of ['in_progress', 'resolved', 'open']) {
      const res = await setStatus(member.client, ticketId, status);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(TICKET_MESSAGES.memberMayOnlyClose);
    }
    expect(await statusOf(ticketId)).toBe('open');
    const close = await setStatus(member.client, ticketId, 'closed');
    expect(close.status).toBe(200);
    expect(close.body.ticket.status).toBe('closed');
    // Only support reopens it.
    expect((await setStatus(member.client, ticketId, 'open')).status).toBe(403);
    expect(await statusOf(ticketId)).toBe('closed');
    // The member's own close is not an admin action: no audit entry, no notification to themself.
    expect(await auditsOf(ticketId)).toEqual([]);
  });

  it("refuses another member's ticket (404), an unknown status (400) and a visitor (401)", async () => {
    const ticketId = await openTicket();
    const res = await setStatus(stranger.client, ticketId, 'closed');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: TICKET_MESSAGES.notFound });
    const bad = await setStatus(admin, ticketId, 'archived');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual({ field: 'status', message: TICKET_MESSAGES.statusInvalid });
    expect((await setStatus(new ApiClient(server.baseUrl), ticketId, 'closed')).status).toBe(401);
    expect((await setStatus(admin, 'T-NOTHERE', 'closed')).status).toBe(404);
    expect(await statusOf(ticketId)).toBe('open');
  });

  it('a status change and an answer racing each other leave a consistent ticket', async () => {
    const ticketId = await openTicket();
    await setStatus(admin, ticketId, 'resolved');
    const [closed, answered] = await Promise.all([
      setStatus(admin, ticketId, 'closed'),
      answer(member.client, ticketId, 'Racing answer'),
    ]);
    expect(closed.status).toBe(200);
    const final = await statusOf(ticketId);
    const rows = await responseRows(ticketId);
    if (answered.status === 201) {
      // The answer came first (reopened to open), then the close: closed with the answer kept;
      // or the close came first and the answer was refused.
      expect(rows).toHaveLength(1);
      expect(final).toBe('closed');
    } else {
      expect(answered.status).toBe(422);
      expect(rows).toHaveLength(0);
      expect(final).toBe('closed');
    }
  });
});

describe('the live channel', () => {
  it('tells the member’s and the admins’ open streams to refetch tickets, and nobody else', async () => {
    const ticketId = await openTicket();
    const [mine, theirs, admins] = [
      await openStream(server.baseUrl, member.client.cookieHeader()),
      await openStream(server.baseUrl, stranger.client.cookieHeader()),
      await openStream(server.baseUrl, admin.cookieHeader()),
    ];
    try {
      for (const s of [mine, theirs, admins]) await s.waitFor((m) => m.some((x) => x.topic === 'ready'));
      expect((await answer(admin, ticketId, 'Live answer')).status).toBe(201);
      await mine.waitFor((m) => countOf(m, 'tickets') === 1);
      await admins.waitFor((m) => countOf(m, 'tickets') === 1);
      // The member's notification arrives on the same stream.
      await mine.waitFor((m) => countOf(m, 'notifications') === 1);
      // A member's answer reaches the admins' stream too.
      expect((await answer(member.client, ticketId, 'Live reply')).status).toBe(201);
      await admins.waitFor((m) => countOf(m, 'tickets') === 2);
      // The events name only the topic: nothing of the ticket travels on them.
      expect(JSON.stringify(mine.messages)).not.toContain(ticketId);
      expect(countOf(theirs.messages, 'tickets')).toBe(0);
      expect(countOf(theirs.messages, 'notifications')).toBe(0);
    } finally {
      for (const s of [mine, theirs, admins]) s.close();
    }
  });
});
