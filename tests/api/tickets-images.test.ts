import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC, UPLOADS } from '../../src/shared/messages.ts';
import { TICKET_IMAGES_PER_HOUR, TICKET_MESSAGES } from '../../src/shared/tickets.ts';
import {
  fetchBytes,
  jpegWithGps,
  noisyPng,
  pngClaiming,
  solidImage,
  uploadFile,
} from '../fixtures/images.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Ticket images (issue 7 "Must hold"): POST /tickets/images takes one real PNG, JPEG or WebP (by its
// bytes) of at most 5 MB and 40 megapixels, re-encoded without metadata; the ticket or answer then
// refers to it by name. A ticket's images belong to the ticket's member, so the member and admins see
// them and nobody else does. Members in this file: 3.

let server: TestServer;
let admin: ApiClient;
type Member = Awaited<ReturnType<typeof signedInMember>>;
let owner: Member;
let other: Member;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  owner = await signedInMember(server.baseUrl);
  other = await signedInMember(server.baseUrl);
});
afterAll(async () => server?.stop());

const upload = (
  client: ApiClient,
  bytes: Buffer,
  options: { ticketId?: string; filename?: string; contentType?: string; field?: string } = {},
) =>
  uploadFile(client, `/tickets/images${options.ticketId ? `?ticket_id=${options.ticketId}` : ''}`, {
    bytes,
    filename: options.filename ?? 'screenshot.png',
    contentType: options.contentType ?? 'image/png',
    field: options.field,
  });

const uploadRows = () => server.db.selectFrom('uploads').selectAll().orderBy('name').execute();
const ticketBody = { subject: 'Screenshot of the error', category: 'technical', message: 'See the picture.' };

describe('a ticket with an image', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('a member attaches a %s to a new ticket', async (format) => {
    const res = await upload(owner.client, await solidImage(format, 200, 100), {
      filename: `error.${format}`,
      contentType: `image/${format}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      image: {
        name: expect.stringMatching(/^[0-9a-f-]{36}\.webp$/),
        url: `/api/v1/uploads/${res.body.image.name}`,
      },
    });
    const created = await owner.client.post('/tickets', { ...ticketBody, image: res.body.image.name });
    expect(created.status, created.text).toBe(201);
    expect(created.body.ticket.image_url).toBe(res.body.image.url);

    const row = await server.db
      .selectFrom('uploads')
      .selectAll()
      .where('name', '=', res.body.image.name)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_id: owner.auth.id, purpose: 'ticket', content_type: 'image/webp' });

    const seenByOwner = await fetchBytes(owner.client, created.body.ticket.image_url);
    expect(seenByOwner.status).toBe(200);
    expect(seenByOwner.headers.get('content-type')).toBe('image/webp');
    expect(seenByOwner.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await sharp(seenByOwner.bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 200,
      height: 100,
    });
    expect((await fetchBytes(admin, created.body.ticket.image_url)).status).toBe(200);
    expect((await fetchBytes(other.client, created.body.ticket.image_url)).status).toBe(404);
  });

  it('keeps no EXIF or GPS position of a phone photo', async () => {
    const res = await upload(owner.client, await jpegWithGps(), {
      filename: 'IMG_0001.jpg',
      contentType: 'image/jpeg',
    });
    expect(res.status).toBe(201);
    const served = await fetchBytes(owner.client, res.body.image.url);
    const meta = await sharp(served.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(served.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('support attaches an image to an answer: it belongs to the ticket, so the member sees it', async () => {
    const ticket = (await owner.client.post('/tickets', ticketBody)).body.ticket;
    const res = await upload(admin, await solidImage('png', 40, 40), { ticketId: ticket.ticket_id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const answered = await admin.post(`/tickets/${ticket.ticket_id}/responses`, {
      message: 'Here is where to find it.',
      image: res.body.image.name,
    });
    expect(answered.status, answered.text).toBe(201);
    expect(answered.body.response.image_url).toBe(res.body.image.url);
    const thread = await owner.client.get(`/ticket-responses/${ticket.ticket_id}`);
    expect(thread.body.responses[0].image_url).toBe(res.body.image.url);
    expect((await fetchBytes(owner.client, res.body.image.url)).status).toBe(200);
    expect((await fetchBytes(other.client, res.body.image.url)).status).toBe(404);
  });

  it('the member attaches an image to an answer in their own ticket', async () => {
    const ticket = (await owner.client.post('/tickets', ticketBody)).body.ticket;
    const res = await upload(owner.client, await solidImage('jpeg'), { ticketId: ticket.ticket_id });
    expect(res.status).toBe(201);
    const answered = await owner.client.post(`/tickets/${ticket.ticket_id}/responses`, {
      message: 'Another one.',
      image: res.body.image.name,
    });
    expect(answered.status).toBe(201);
    expect(answered.body.response.image_url).toBe(res.body.image.url);
  });
});

describe('bad uploads are refused and store nothing', () => {
  const refused = async (
    client: ApiClient,
    bytes: Buffer,
    options: Parameters<typeof upload>[2],
    status: number,
    message: string,
  ) => {
    const before = await uploadRows();
    const res = await upload(client, bytes, options);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect(await uploadRows()).toEqual(before);
  };

  it('a text file named .png (400)', async () => {
    await refused(
      owner.client,
      Buffer.from('not a picture at all\n'.repeat(30)),
      {},
      400,
      UPLOADS.notAnImage,
    );
  });

  it('a script named .jpg and sent as image/jpeg (400)', async () => {
    await refused(
      owner.client,
      Buffer.from('<script>alert(document.cookie)</script>'),
      { filename: 'x.jpg', contentType: 'image/jpeg' },
      400,
      UPLOADS.notAnImage,
    );
  });

  it('a GIF, whatever its name (400)', async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    await refused(owner.client, gif, {}, 400, UPLOADS.notAnImage);
  });

  it('a PNG over 40 megapixels (413) and one over 5 MB (413)', async () => {
    await refused(owner.client, await pngClaiming(8000, 5001), {}, 413, UPLOADS.tooManyPixels);
    await refused(owner.client, await noisyPng(5 * 1024 * 1024 + 1), {}, 413, UPLOADS.tooLarge);
  });

  it('no file in the image field, or JSON instead of multipart (400)', async () => {
    await refused(owner.client, await solidImage('png'), { field: 'picture' }, 400, UPLOADS.missing);
    const json = await owner.client.post('/tickets/images', { image: 'data:image/png;base64,AAAA' });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe(UPLOADS.notMultipart);
  });

  it("an upload for another member's ticket (404), for a closed ticket (422), or by support without a ticket (400)", async () => {
    const ticket = (await owner.client.post('/tickets', ticketBody)).body.ticket;
    const png = await solidImage('png');
    await refused(other.client, png, { ticketId: ticket.ticket_id }, 404, TICKET_MESSAGES.notFound);
    await refused(admin, png, {}, 400, TICKET_MESSAGES.notFound);
    expect((await admin.put(`/tickets/${ticket.ticket_id}/status`, { status: 'closed' })).status).toBe(200);
    await refused(owner.client, png, { ticketId: ticket.ticket_id }, 422, TICKET_MESSAGES.closedNoResponses);
    await refused(new ApiClient(server.baseUrl), png, {}, 401, 'Please sign in to continue.');
  });
});

describe('too many uploads', () => {
  it(`refuses a member's upload beyond ${TICKET_IMAGES_PER_HOUR} an hour (429), refused files included`, async () => {
    const busy = await signedInMember(server.baseUrl);
    const junk = Buffer.from('not an image');
    for (let i = 0; i < TICKET_IMAGES_PER_HOUR; i += 1)
      expect((await upload(busy.client, junk)).status).toBe(400);
    const before = await uploadRows();
    const res = await upload(busy.client, await solidImage('png'));
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(GENERIC.tooManyRequests);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(await uploadRows()).toEqual(before);
    expect((await upload(owner.client, await solidImage('png'))).status).toBe(201);
  });
});

describe('a ticket may refer only to images uploaded for its member', () => {
  it("refuses another member's image, a banner and an unknown name (400), and opens nothing", async () => {
    const othersImage = (await upload(other.client, await solidImage('png'))).body.image.name;
    const banner = await uploadFile(admin, '/notifications/banner', {
      bytes: await solidImage('png'),
      filename: 'banner.png',
      contentType: 'image/png',
    });
    expect(banner.status).toBe(201);
    const before = await server.db.selectFrom('tickets').select('ticket_id').execute();
    for (const image of [othersImage, banner.body.banner.name, '00000000-0000-4000-8000-000000000000.webp']) {
      const res = await owner.client.post('/tickets', { ...ticketBody, image });
      expect(res.status, image).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'image', message: TICKET_MESSAGES.imageUnknown }]);
    }
    expect(await server.db.selectFrom('tickets').select('ticket_id').execute()).toEqual(before);
  });

  it("refuses, in an answer, an image uploaded for another member's ticket", async () => {
    const mine = (await owner.client.post('/tickets', ticketBody)).body.ticket;
    const theirs = (await other.client.post('/tickets', ticketBody)).body.ticket;
    // Support uploads for the other member's ticket, then tries to use it in this one.
    const forTheirs = (await upload(admin, await solidImage('png'), { ticketId: theirs.ticket_id })).body
      .image.name;
    const res = await admin.post(`/tickets/${mine.ticket_id}/responses`, {
      message: 'Wrong picture',
      image: forTheirs,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'image', message: TICKET_MESSAGES.imageUnknown }]);
    expect(
      await server.db
        .selectFrom('ticket_responses')
        .selectAll()
        .where('ticket_id', '=', mine.ticket_id)
        .execute(),
    ).toEqual([]);
  });
});
