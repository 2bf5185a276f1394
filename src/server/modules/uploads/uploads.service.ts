import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { UPLOADS } from '../../../shared/messages.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { insertUpload } from './uploads.repository.ts';

// Stored images: the notifications banner and the tickets module's images (tickets.service uses
// storeImage and readImageField; keep their signatures). A file is judged by its bytes only (sharp
// reads them), never by its name or the client's content type; it is decoded, re-encoded to WebP
// without any metadata (EXIF, GPS, ICC comments) and written under a generated name in
// DATA_DIR/uploads, outside the web root. GET /api/v1/uploads/:name serves it (uploads.routes.ts).
// For a ticket image pass the ticket owner's id as ownerId, so the member can see what an admin attaches.

export type StoredImage = { name: string; url: string };
export type UploadPurpose = 'banner' | 'ticket' | 'deposit' | 'achiever' | 'news';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_UPLOAD_PIXELS = 40_000_000;
/** Stored images are scaled down to fit this box (a phone never shows more). */
const MAX_STORED_SIDE = 2560;
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);
export const UPLOADS_URL_PREFIX = '/api/v1/uploads/';
export const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

export const uploadsDirOf = (dataDir: string) => join(dataDir, 'uploads');

const tooLarge = () => new AppError(413, UPLOADS.tooLarge);
const notAnImage = () => badRequest([{ field: 'image', message: UPLOADS.notAnImage }]);

/** Checks, re-encodes and stores one image; records it in the uploads table (in the caller's transaction if given one). */
export async function storeImage(
  db: Db,
  dataDir: string,
  input: { bytes: Buffer; ownerId: string; purpose: UploadPurpose },
): Promise<StoredImage> {
  const { bytes } = input;
  if (bytes.length === 0) throw badRequest([{ field: 'image', message: UPLOADS.missing }]);
  if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    throw notAnImage();
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format) || !metadata.width || !metadata.height)
    throw notAnImage();
  // sharp reports the header's size before decoding anything: a pixel bomb is refused unopened.
  if (metadata.width * metadata.height > MAX_UPLOAD_PIXELS) throw new AppError(413, UPLOADS.tooManyPixels);

  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: 'error' })
      .rotate() // applies the EXIF orientation, which is dropped with the rest of the metadata
      .resize({ width: MAX_STORED_SIDE, height: MAX_STORED_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    // A header that looks right over data that does not decode.
    throw notAnImage();
  }

  const name = `${randomUUID()}.webp`;
  const dir = uploadsDirOf(dataDir);
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  const temporary = `${path}.tmp`;
  await writeFile(temporary, output.data, { mode: 0o600 });
  await rename(temporary, path);
  try {
    await insertUpload(db, {
      name,
      owner_id: input.ownerId,
      purpose: input.purpose,
      content_type: 'image/webp',
      size_bytes: output.data.length,
      width: output.info.width,
      height: output.info.height,
      created_at: new Date().toISOString(),
    });
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { name, url: `${UPLOADS_URL_PREFIX}${name}` };
}

type MultipartError = Error & { code?: string };

/** Reads the one file of a multipart request, in `field`; more than 5 MB is a 413 before it is all read. */
export async function readImageField(request: FastifyRequest, field = 'image'): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest([{ field, message: UPLOADS.notMultipart }]);
  try {
    const file = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
    if (!file || file.fieldname !== field) throw badRequest([{ field, message: UPLOADS.missing }]);
    return await file.toBuffer();
  } catch (error) {
    const code = (error as MultipartError).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw badRequest([{ field, message: UPLOADS.notMultipart }]);
    throw error;
  }
}
