import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWS_MESSAGES as M } from '../../src/shared/news.ts';
import { fetchBytes, solidImage, uploadFile } from '../fixtures/images.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// News (issue 19 item 4): an admin writes a draft, publishes it, changes and deletes it, each change
// audited; members read published news only (a draft is a 404 to them) and never change any.

let server: TestServer;
let admin: ApiClient;
let member: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  member = (await signedInMember(server.baseUrl)).client;
});
afterAll(async () => server?.stop());

const auditOf = (id: string) =>
  server.db
    .selectFrom('audit_log')
    .select(['action', 'before_json', 'after_json'])
    .where('target_id', '=', id)
    .orderBy('created_at')
    .execute();

const picture = async (client: ApiClient) =>
  uploadFile(client, '/news/images', {
    bytes: await solidImage('png', 320, 200),
    filename: 'launch.png',
    contentType: 'image/png',
  });

describe('news', () => {
  it('keeps a draft from members until it is published, then shows it with its picture, newest first', async () => {
    const upload = await picture(admin);
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const draft = await admin.post('/news/add', {
      title: '  Maintenance on Sunday ',
      body: 'Withdrawals pause for one hour.',
      image: upload.body.image.name,
    });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body).toMatchObject({
      message: M.created,
      news: {
        title: 'Maintenance on Sunday',
        published: false,
        published_at: null,
        image_url: upload.body.image.url,
      },
    });
    const id = draft.body.news.id;
    expect((await member.get(`/news/${id}`)).status).toBe(404);
    expect((await member.get('/news/list')).body.news.map((n: { id: string }) => n.id)).not.toContain(id);
    expect((await admin.get(`/news/${id}`)).body.news.title).toBe('Maintenance on Sunday');

    const published = await admin.put(`/news/${id}`, { published: true });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ message: M.updated, news: { published: true } });
    const publishedAt = published.body.news.published_at;
    expect(typeof publishedAt).toBe('string');

    const later = await admin.post('/news/add', {
      title: 'New plan',
      body: 'Gold is open.',
      published: true,
    });
    expect(later.status).toBe(201);
    // Newest first by publication time: the later item leads (or ties to the millisecond).
    const list = (await member.get('/news/list')).body.news as { id: string; published_at: string }[];
    expect(list.map((n) => n.id)).toEqual(expect.arrayContaining([id, later.body.news.id]));
    const times = list.map((n) => n.published_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(later.body.news.published_at >= publishedAt).toBe(true);
    expect((await member.get('/news/list?limit=1')).body.news).toHaveLength(1);
    const seen = await fetchBytes(member, published.body.news.image_url);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/webp');

    // Changing the text keeps the publication time; removing the picture takes it off.
    const edited = await admin.put(`/news/${id}`, { body: 'Withdrawals pause for two hours.', image: null });
    expect(edited.status).toBe(200);
    expect(edited.body.news).toMatchObject({
      body: 'Withdrawals pause for two hours.',
      image_url: null,
      published_at: publishedAt,
    });
    expect((await member.get(`/news/${id}`)).body.news.body).toBe('Withdrawals pause for two hours.');

    const unpublished = await admin.put(`/news/${id}`, { published: false });
    expect(unpublished.body.news.published).toBe(false);
    expect((await member.get(`/news/${id}`)).status).toBe(404);

    const removed = await admin.request('DELETE', `/news/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(M.deleted);
    expect((await admin.get(`/news/${id}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/news/${id}`)).status).toBe(404);

    // Each change wrote one audit entry with the item as it was before and after.
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action).sort()).toEqual([
      'news.create',
      'news.delete',
      'news.update',
      'news.update',
      'news.update',
    ]);
    const parsed = audit.map((a) => ({
      action: a.action,
      before: JSON.parse(a.before_json ?? 'null'),
      after: JSON.parse(a.after_json ?? 'null'),
    }));
    expect(parsed).toContainEqual(
      expect.objectContaining({
        action: 'news.update',
        before: expect.objectContaining({ published: false }),
        after: expect.objectContaining({ published: true }),
      }),
    );
    expect(parsed.find((a) => a.action === 'news.delete')?.before).toMatchObject({
      title: 'Maintenance on Sunday',
      published: false,
    });
  });

  it('lets only admins change news: a member gets 403 and nothing changes', async () => {
    const news = (await admin.post('/news/add', { title: 'Admins only', body: 'Text', published: true })).body
      .news;
    expect((await member.post('/news/add', { title: 'Mine', body: 'Text' })).status).toBe(403);
    expect((await member.put(`/news/${news.id}`, { title: 'Changed' })).status).toBe(403);
    expect((await member.request('DELETE', `/news/${news.id}`)).status).toBe(403);
    expect((await picture(member)).status).toBe(403);
    expect((await member.get(`/news/${news.id}`)).body.news).toEqual(news);
    expect((await auditOf(news.id)).map((a) => a.action)).toEqual(['news.create']);
    const { ApiClient } = await import('../helpers/client.ts');
    expect((await new ApiClient(server.baseUrl).get('/news/list')).status).toBe(401);
  });

  it('refuses bad input with a 400 on the field and changes nothing', async () => {
    const before = (await admin.get('/news/list')).body.news;
    const blank = await admin.post('/news/add', { title: ' ', body: '' });
    expect(blank.status).toBe(400);
    expect(new Set(blank.body.errors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['title', 'body']),
    );
    const long = await admin.post('/news/add', { title: 'x'.repeat(121), body: 'ok' });
    expect(long.body.errors).toEqual([{ field: 'title', message: M.titleRequired }]);
    const unknown = await admin.post('/news/add', { title: 'Pic', body: 'ok', image: 'nothing.webp' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'image', message: M.imageUnknown }]);
    const notBool = await admin.post('/news/add', { title: 'T', body: 'B', published: 'yes' });
    expect(notBool.status).toBe(400);
    expect((await admin.get('/news/list?limit=0')).status).toBe(400);
    expect((await admin.get('/news/list')).body.news).toEqual(before);

    const news = (await admin.post('/news/add', { title: 'Stays', body: 'As it is' })).body.news;
    expect((await admin.put(`/news/${news.id}`, {})).status).toBe(400);
    expect((await admin.put(`/news/${news.id}`, { title: '' })).status).toBe(400);
    expect((await admin.put('/news/no-such-id', { title: 'x' })).status).toBe(404);
    expect((await admin.get(`/news/${news.id}`)).body.news).toEqual(news);
    expect((await auditOf(news.id)).map((a) => a.action)).toEqual(['news.create']);
  });
});
