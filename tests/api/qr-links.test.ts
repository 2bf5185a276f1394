import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QR_LINK_MESSAGES as M } from '../../src/shared/qr-links.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// QR links (issue 19 item 4): an admin adds a label with an https link or a wallet address and removes
// it, each audited; members read them (to show where they deposit) and change nothing.

let server: TestServer;
let admin: ApiClient;
let member: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  member = (await signedInMember(server.baseUrl)).client;
});
afterAll(async () => server?.stop());

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'; // EIP-55's own example, checksummed
const auditOf = (id: string) =>
  server.db
    .selectFrom('audit_log')
    .select(['action', 'before_json', 'after_json'])
    .where('target_id', '=', id)
    .orderBy('created_at')
    .execute();

describe('QR links', () => {
  it('lets an admin add a link and an address that members see, and remove one', async () => {
    const link = await admin.post('/qr/add', { label: 'Deposit guide', value: 'https://example.com/guide' });
    expect(link.status, link.text).toBe(201);
    expect(link.body).toMatchObject({
      message: M.created,
      qr: { label: 'Deposit guide', value: 'https://example.com/guide', kind: 'url' },
    });
    const wallet = await admin.post('/qr/add', { label: 'USDT BEP20', value: ` ${ADDRESS} ` });
    expect(wallet.status, wallet.text).toBe(201);
    expect(wallet.body.qr).toMatchObject({ value: ADDRESS, kind: 'address' });

    const seen = await member.get('/qr');
    expect(seen.status).toBe(200);
    expect(seen.body.qr).toHaveLength(2);
    expect(seen.body.qr).toEqual(expect.arrayContaining([wallet.body.qr, link.body.qr]));

    const removed = await admin.request('DELETE', `/qr/${link.body.qr.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(M.deleted);
    expect((await member.get('/qr')).body.qr).toEqual([wallet.body.qr]);
    expect((await admin.request('DELETE', `/qr/${link.body.qr.id}`)).status).toBe(404);

    const audit = await auditOf(link.body.qr.id);
    expect(audit.map((a) => a.action).sort()).toEqual(['qr_link.create', 'qr_link.delete']);
    const deletion = audit.find((a) => a.action === 'qr_link.delete');
    expect(JSON.parse(deletion?.before_json ?? '{}')).toMatchObject({ label: 'Deposit guide' });
    await admin.request('DELETE', `/qr/${wallet.body.qr.id}`);
  });

  it('is for admins only: a member gets 403 and nothing changes', async () => {
    const kept = (await admin.post('/qr/add', { label: 'Kept', value: 'https://example.com/kept' })).body.qr;
    expect((await member.post('/qr/add', { label: 'Mine', value: 'https://example.com' })).status).toBe(403);
    expect((await member.request('DELETE', `/qr/${kept.id}`)).status).toBe(403);
    expect((await member.get('/qr')).body.qr).toEqual([kept]);
    expect((await auditOf(kept.id)).map((a) => a.action)).toEqual(['qr_link.create']);
    const { ApiClient } = await import('../helpers/client.ts');
    expect((await new ApiClient(server.baseUrl).get('/qr')).status).toBe(401);
    await admin.request('DELETE', `/qr/${kept.id}`);
  });

  it('refuses a value that is neither an https link nor a valid wallet address, changing nothing', async () => {
    const refused = [
      'http://example.com/plain',
      'javascript:alert(1)',
      'https://user:pass@example.com',
      'example.com',
      '0x52908400098527886e0F7030069857D2E4169EE7', // one letter's case wrong: the checksum fails
      '0x1234',
      `https://example.com/${'a'.repeat(500)}`,
    ];
    for (const value of refused) {
      const answer = await admin.post('/qr/add', { label: 'Bad', value });
      expect(answer.status, value).toBe(400);
      expect(answer.body.errors.map((e: { field: string }) => e.field)).toEqual(['value']);
    }
    const blank = await admin.post('/qr/add', { label: '  ', value: 'https://example.com' });
    expect(blank.body.errors).toEqual([{ field: 'label', message: M.labelRequired }]);
    expect((await admin.get('/qr')).body.qr).toEqual([]);
    const audit = await server.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'qr_link.create')
      .execute();
    expect(audit).toHaveLength(3);
  });
});
