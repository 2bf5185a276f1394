import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACHIEVER_MESSAGES as M } from '../../src/shared/achievers.ts';
import { fetchBytes, solidImage, uploadFile } from '../fixtures/images.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The achievers gallery (issue 17 item 4): an admin uploads a photo and adds it with a name and a rank;
// every signed-in member sees the gallery and its photos; an admin removes one. Audited, admin-only.

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => server?.stop());

const photo = async (client: ApiClient) =>
  uploadFile(client, '/achivers/images', {
    bytes: await solidImage('jpeg', 300, 300),
    filename: 'ada.jpg',
    contentType: 'image/jpeg',
  });

describe('achievers', () => {
  it('lets an admin add an achiever that every member sees, photo included, and remove it', async () => {
    const upload = await photo(admin);
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const added = await admin.post('/achivers/add', {
      name: 'Ada Lovelace',
      rank: 'Diamond',
      image: upload.body.image.name,
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({
      message: M.added,
      achiever: { name: 'Ada Lovelace', rank: 'Diamond', image_url: upload.body.image.url },
    });
    const member = await signedInMember(server.baseUrl);
    const list = await member.client.get('/achivers/list');
    expect(list.body.achievers).toEqual([added.body.achiever]);
    const seen = await fetchBytes(member.client, added.body.achiever.image_url);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/webp');

    const audit = await admin.get('/audit?action=achiever.add');
    expect(JSON.stringify(audit.body)).toContain(added.body.achiever.id);
    const removed = await admin.request('DELETE', `/achivers/${added.body.achiever.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(M.deleted);
    expect((await member.client.get('/achivers/list')).body.achievers).toEqual([]);
    expect((await admin.request('DELETE', `/achivers/${added.body.achiever.id}`)).status).toBe(404);
  });

  it('is for admins only and refuses a photo that was not uploaded as an achiever’s', async () => {
    const member = await signedInMember(server.baseUrl);
    expect((await photo(member.client)).status).toBe(403);
    expect((await member.client.post('/achivers/add', { name: 'X', rank: 'Y', image: 'z' })).status).toBe(
      403,
    );
    const unknown = await admin.post('/achivers/add', {
      name: 'Ada',
      rank: 'Gold',
      image: 'no-such-photo.webp',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'image', message: M.imageUnknown }]);
    const blank = await admin.post('/achivers/add', { name: ' ', rank: '', image: '' });
    expect(blank.status).toBe(400);
    expect(new Set(blank.body.errors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['name', 'rank', 'image']),
    );
    expect(
      (await new (await import('../helpers/client.ts')).ApiClient(server.baseUrl).get('/achivers/list'))
        .status,
    ).toBe(401);
  });
});
