import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES } from '../../src/shared/tickets.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Spec 7 "Support": POST /support/add; GET /support/list; GET /support/by/{id}; PUT, DELETE
// /support/{id}, served by the one ticket model (docs/rules.md "Support tickets"): /support/add opens a
// ticket; /support/list is the member's own tickets (every ticket for an admin); /support/by/{id}
// lists member {id}'s tickets; PUT /support/{id} sets ticket {id}'s status; DELETE /support/{id}
// closes it and erases nothing. Members in this file: 3.

let server: TestServer;
let admin: ApiClient;
type Member = Awaited<ReturnType<typeof signedInMember>>;
let member: Member;
let other: Member;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  member = await signedInMember(server.baseUrl);
  other = await signedInMember(server.baseUrl);
});
afterAll(async () => server?.stop());

const body = { subject: 'Cannot change my phone number', category: 'account', message: 'Where do I do it?' };
const ids = (res: { body: { tickets: { ticket_id: string }[] } }) => res.body.tickets.map((t) => t.ticket_id);

describe('the older support calls are the ticket calls', () => {
  let ticketId: string;
  let othersTicket: string;
  beforeAll(async () => {
    const res = await member.client.post('/support/add', body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe(TICKET_MESSAGES.created);
    ticketId = res.body.ticket.ticket_id;
    othersTicket = (await other.client.post('/tickets', { ...body, subject: 'Other member' })).body.ticket
      .ticket_id;
  });

  it('POST /support/add opens a ticket in the same model: the ticket calls see it', async () => {
    const single = await member.client.get(`/tickets/single/${ticketId}`);
    expect(single.status).toBe(200);
    expect(single.body.ticket).toMatchObject({
      subject: body.subject,
      status: 'open',
      user_id: member.auth.id,
    });
    expect(ids(await admin.get('/tickets'))).toContain(ticketId);
    // Validation and access are the same as POST /tickets.
    const invalid = await member.client.post('/support/add', { ...body, message: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toContainEqual({
      field: 'message',
      message: TICKET_MESSAGES.messageRequired,
    });
    expect((await admin.post('/support/add', body)).status).toBe(403);
    // One table holds them all.
    const rows = await server.db.selectFrom('tickets').select('ticket_id').execute();
    expect(rows.map((r) => r.ticket_id).sort()).toEqual([ticketId, othersTicket].sort());
  });

  it('GET /support/list: a member gets only their own tickets; an admin every ticket, with the ticket filters', async () => {
    const mine = await member.client.get('/support/list');
    expect(mine.status).toBe(200);
    expect(ids(mine)).toEqual([ticketId]);
    expect(mine.body.total).toBe(1);
    // A member's search cannot reach other members' tickets.
    expect(ids(await member.client.get('/support/list?search=Other'))).toEqual([]);
    const all = await admin.get('/support/list');
    expect(ids(all).sort()).toEqual([ticketId, othersTicket].sort());
    expect(ids(await admin.get('/support/list?search=other%20member'))).toEqual([othersTicket]);
    expect((await admin.get('/support/list?status=nope')).status).toBe(400);
    expect((await new ApiClient(server.baseUrl).get('/support/list')).status).toBe(401);
  });

  it("GET /support/by/{id}: a member's tickets by member id; another member's id is a 404", async () => {
    const own = await member.client.get(`/support/by/${member.auth.id}`);
    expect(own.status).toBe(200);
    expect(ids(own)).toEqual([ticketId]);
    const stranger = await member.client.get(`/support/by/${other.auth.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain(othersTicket);
    expect(ids(await admin.get(`/support/by/${other.auth.id}`))).toEqual([othersTicket]);
  });

  it('PUT /support/{id}: sets the status with the same rules as PUT /tickets/{ticketId}/status', async () => {
    const res = await admin.put(`/support/${ticketId}`, { status: 'in_progress' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: TICKET_MESSAGES.statusUpdated,
      ticket: expect.objectContaining({ ticket_id: ticketId, status: 'in_progress' }),
    });
    expect((await member.client.put(`/support/${ticketId}`, { status: 'resolved' })).status).toBe(403);
    expect((await other.client.put(`/support/${ticketId}`, { status: 'closed' })).status).toBe(404);
    expect((await admin.put(`/support/${ticketId}`, { status: 'gone' })).status).toBe(400);
    expect((await member.client.get(`/tickets/single/${ticketId}`)).body.ticket.status).toBe('in_progress');
  });

  it('DELETE /support/{id}: closes the ticket and keeps it and its thread readable', async () => {
    expect(
      (await admin.post(`/tickets/${ticketId}/responses`, { message: 'Settings, then Profile.' })).status,
    ).toBe(201);
    const stranger = await other.client.request('DELETE', `/support/${ticketId}`);
    expect(stranger.status).toBe(404);
    expect((await member.client.get(`/tickets/single/${ticketId}`)).body.ticket.status).toBe('in_progress');

    const res = await member.client.request('DELETE', `/support/${ticketId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: TICKET_MESSAGES.closed,
      ticket: expect.objectContaining({ ticket_id: ticketId, status: 'closed' }),
    });
    const still = await member.client.get(`/tickets/single/${ticketId}`);
    expect(still.status).toBe(200);
    expect(still.body.ticket.status).toBe('closed');
    const thread = await member.client.get(`/ticket-responses/${ticketId}`);
    expect(thread.body.responses.map((r: { message: string }) => r.message)).toEqual([
      'Settings, then Profile.',
    ]);
    // Closed: no more answers, and deleting again changes nothing.
    expect((await member.client.post(`/tickets/${ticketId}/responses`, { message: 'One more' })).status).toBe(
      422,
    );
    const again = await member.client.request('DELETE', `/support/${ticketId}`);
    expect(again.status).toBe(200);
    expect(again.body.ticket.status).toBe('closed');
    // An admin may close any ticket the same way.
    const byAdmin = await admin.request('DELETE', `/support/${othersTicket}`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.ticket.status).toBe('closed');
    expect((await new ApiClient(server.baseUrl).request('DELETE', `/support/${othersTicket}`)).status).toBe(
      401,
    );
  });
});
