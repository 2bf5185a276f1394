import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeImage } from '../../src/server/modules/uploads/uploads.service.ts';
import { UPLOADS } from '../../src/shared/messages.ts';
import { NOTIFICATION_MESSAGES } from '../../src/shared/notifications.ts';
import {
  fetchBytes,
  hasGpsTag,
  jpegWithGps,
  noisyPng,
  pngClaiming,
  solidImage,
  uploadFile,
} from '../fixtures/images.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Image uploads (issue 7 "Must hold"): only real PNG, JPEG or WebP by their bytes, at most 5 MB and
// 40 megapixels, re-encoded without metadata, stored under generated names outside the web root and
// served with nosniff and our own content type. POST /notifications/banner is the public way in;
// ticket images go through the same storeImage, checked here directly for who may read them.

let server: TestServer;
let admin: ApiClient;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'uploads-test-'));
  server = await startServer({ DATA_DIR: dataDir });
  admin = await signedInAdminClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const uploadsOnDisk = () => readdirSync(join(dataDir, 'uploads'));
const uploadRows = () => server.db.selectFrom('uploads').selectAll().orderBy('name').execute();

const banner = (bytes: Buffer, filename = 'banner.png', contentType = 'image/png', client = admin) =>
  uploadFile(client, '/notifications/banner', { bytes, filename, contentType });

describe('POST /notifications/banner accepts real images', () => {
  it.each(['png', 'jpeg', 'webp'] as const)(
    'stores a %s as a re-encoded WebP under a generated name',
    async (format) => {
      const bytes = await solidImage(format, 120, 90);
      const res = await banner(bytes, `my holiday.${format}`, `image/${format}`);
      expect(res.status).toBe(201);
      expect(res.body.message).toBe(NOTIFICATION_MESSAGES.bannerCreated);
      expect(res.body.banner.name).toMatch(/^[0-9a-f-]{36}\.webp$/);
      expect(res.body.banner.name).not.toContain('holiday');
      expect(res.body.banner.url).toBe(`/api/v1/uploads/${res.body.banner.name}`);

      const served = await fetchBytes(admin, res.body.banner.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('cache-control')).toMatch(/^private/);
      const meta = await sharp(served.bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 120, height: 90 });

      const current = await admin.get('/notifications/banner');
      expect(current.body.banner).toMatchObject({ name: res.body.banner.name, url: res.body.banner.url });
    },
  );

  it('strips EXIF (and its GPS position) from a JPEG', async () => {
    const bytes = await jpegWithGps();
    expect(hasGpsTag((await sharp(bytes).metadata()).exif ?? Buffer.alloc(0))).toBe(true);
    const res = await banner(bytes, 'photo.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    const served = await fetchBytes(admin, res.body.banner.url);
    const meta = await sharp(served.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(hasGpsTag(served.bytes)).toBe(false);
    expect(served.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('serves a banner to any signed-in member, and to nobody signed out', async () => {
    const res = await banner(await solidImage('png'));
    const { client } = await signedInMember(server.baseUrl);
    expect((await fetchBytes(client, res.body.banner.url)).status).toBe(200);
    const anonymous = await fetchBytes(new ApiClient(server.baseUrl), res.body.banner.url);
    expect(anonymous.status).toBe(401);
    const current = await client.get('/notifications/banner');
    expect(current.status).toBe(200);
    expect(current.body.banner.name).toBe(res.body.banner.name);
  });
});

describe('POST /notifications/banner refuses anything else and stores nothing', () => {
  const refused = async (
    bytes: Buffer,
    filename: string,
    contentType: string,
    status: number,
    message: string,
  ) => {
    const rowsBefore = await uploadRows();
    const res = await banner(bytes, filename, contentType);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect(await uploadRows()).toEqual(rowsBefore);
  };

  it('refuses a text file named .png and sent as image/png (400)', async () => {
    await refused(
      Buffer.from('hello, I am not a picture\n'.repeat(20)),
      'cat.png',
      'image/png',
      400,
      UPLOADS.notAnImage,
    );
  });

  it('refuses an HTML page named .jpg (400)', async () => {
    await refused(
      Buffer.from('<html><script>alert(1)</script></html>'),
      'x.jpg',
      'image/jpeg',
      400,
      UPLOADS.notAnImage,
    );
  });

  it('refuses formats other than PNG, JPEG and WebP, whatever the name says (400)', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    await refused(gif, 'anim.png', 'image/png', 400, UPLOADS.notAnImage);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    await refused(svg, 'logo.png', 'image/png', 400, UPLOADS.notAnImage);
  });

  it('refuses a PNG over 40 megapixels without decoding it (413)', async () => {
    const bomb = await pngClaiming(8000, 6000);
    expect((await sharp(bomb).metadata()).width).toBe(8000);
    expect(bomb.length).toBeLessThan(1000);
    await refused(bomb, 'big.png', 'image/png', 413, UPLOADS.tooManyPixels);
  });

  it('accepts exactly the pixel limit in the header check and refuses one pixel row more', async () => {
    // 8000 x 5000 = 40,000,000 passes the size check (its data is then truncated: not an image);
    // 8000 x 5001 is over the limit.
    await refused(await pngClaiming(8000, 5000), 'edge.png', 'image/png', 400, UPLOADS.notAnImage);
    await refused(await pngClaiming(8000, 5001), 'edge.png', 'image/png', 413, UPLOADS.tooManyPixels);
  });

  it('refuses a real PNG over 5 MB (413)', async () => {
    const big = await noisyPng(5 * 1024 * 1024 + 1);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    await refused(big, 'noise.png', 'image/png', 413, UPLOADS.tooLarge);
  });

  it('refuses a request without the image field, or not multipart (400)', async () => {
    const wrongField = await uploadFile(admin, '/notifications/banner', {
      bytes: await solidImage('png'),
      filename: 'a.png',
      contentType: 'image/png',
      field: 'picture',
    });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.message).toBe(UPLOADS.missing);
    const json = await admin.post('/notifications/banner', { image: 'data:image/png;base64,AAAA' });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe(UPLOADS.notMultipart);
  });

  it('lets only admins upload a banner', async () => {
    const { client } = await signedInMember(server.baseUrl);
    const rowsBefore = await uploadRows();
    const res = await uploadFile(client, '/notifications/banner', {
      bytes: await solidImage('png'),
      filename: 'a.png',
      contentType: 'image/png',
    });
    expect(res.status).toBe(403);
    const anonymous = await uploadFile(new ApiClient(server.baseUrl), '/notifications/banner', {
      bytes: await solidImage('png'),
      filename: 'a.png',
      contentType: 'image/png',
    });
    expect(anonymous.status).toBe(401);
    expect(await uploadRows()).toEqual(rowsBefore);
  });
});

describe('GET /api/v1/uploads/:name', () => {
  it('shows a ticket image only to its owner and admins (others, a 404 like a missing name)', async () => {
    const owner = await signedInMember(server.baseUrl);
    const other = await signedInMember(server.baseUrl);
    const stored = await storeImage(server.db, dataDir, {
      bytes: await solidImage('jpeg'),
      ownerId: owner.auth.id,
      purpose: 'ticket',
    });
    expect((await fetchBytes(owner.client, stored.url)).status).toBe(200);
    expect((await fetchBytes(admin, stored.url)).status).toBe(200);
    const stranger = await fetchBytes(other.client, stored.url);
    expect(stranger.status).toBe(404);
    expect(stranger.bytes.length).toBeLessThan(200);
    const missing = await fetchBytes(
      owner.client,
      '/api/v1/uploads/00000000-0000-4000-8000-000000000000.webp',
    );
    expect(missing.status).toBe(404);
  });

  it('answers 404 to names that are not ours (no path tricks)', async () => {
    for (const name of ['..%2F..%2Fplatform.sqlite', 'platform.sqlite', '%2e%2e%2fetc%2fpasswd', 'x.webp']) {
      const res = await fetchBytes(admin, `/api/v1/uploads/${name}`);
      expect(res.status).toBe(404);
    }
  });

  it('keeps the stored files under generated names in DATA_DIR/uploads', async () => {
    const rows = await uploadRows();
    expect(rows.length).toBeGreaterThan(0);
    const files = uploadsOnDisk();
    for (const row of rows) expect(files).toContain(row.name);
    expect(files.every((f) => /^[0-9a-f-]{36}\.webp$/.test(f))).toBe(true);
  });
});
