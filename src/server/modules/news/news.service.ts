import {
  NEWS_MESSAGES as M,
  NEWS_LIST_MAX,
  type News,
  type NewsInput,
  type NewsUpdate,
} from '../../../shared/news.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { NewsTable } from '../../db/schema.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { type AuditedRows, auditedCreate, auditedDelete, auditedUpdate } from '../audit/audited.ts';
import { findUpload } from '../uploads/uploads.repository.ts';
import { UPLOADS_URL_PREFIX } from '../uploads/uploads.service.ts';
import { deleteNews, findNews, insertNews, listNewsRows, updateNews } from './news.repository.ts';

// News: admins write, change, publish and delete (audited, one transaction with the audit entry
// each); members read published news only, and a draft is the same 404 to them as a missing id.

const isAdmin = (asker: SessionUser) => asker.user.role === 'admin';

function adminOnly(asker: SessionUser) {
  if (!isAdmin(asker)) throw forbidden();
}

const toNews = (row: NewsTable): News => ({
  id: row.id,
  title: row.title,
  body: row.body,
  image_url: row.image ? `${UPLOADS_URL_PREFIX}${row.image}` : null,
  published: row.published_at !== null,
  published_at: row.published_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const newsRows: AuditedRows<NewsTable, News> = {
  action: 'news',
  targetType: 'news',
  show: toNews,
  find: findNews,
  insert: insertNews,
  update: updateNews,
  remove: deleteNews,
  inUse: async () => false,
  messages: {
    notFound: M.notFound,
    taken: M.notFound,
    inUse: M.notFound,
    nothingToChange: { field: 'title', message: M.nothingToChange },
  },
};

/** A picture must have been uploaded as a news picture (by POST /news/images). */
async function checkImage(db: Db, image: string | null | undefined) {
  if (!image) return;
  const upload = await findUpload(db, image);
  if (upload?.purpose !== 'news') throw badRequest([{ field: 'image', message: M.imageUnknown }]);
}

export async function listNews(db: Db, asker: SessionUser, limit = NEWS_LIST_MAX) {
  const rows = await listNewsRows(db, { publishedOnly: !isAdmin(asker), limit });
  return { news: rows.map(toNews) };
}

export async function readNews(db: Db, asker: SessionUser, id: string) {
  const row = await findNews(db, id);
  if (!row || (row.published_at === null && !isAdmin(asker))) throw notFound(M.notFound);
  return { news: toNews(row) };
}

export async function addNews(db: Db, admin: SessionUser, input: NewsInput) {
  adminOnly(admin);
  await checkImage(db, input.image);
  const now = new Date().toISOString();
  const row: NewsTable = {
    id: newId(),
    title: input.title,
    body: input.body,
    image: input.image ?? null,
    published_at: input.published ? now : null,
    created_by: admin.user.id,
    created_at: now,
    updated_at: now,
  };
  return { message: M.created, news: await auditedCreate(db, admin, newsRows, row) };
}

export async function changeNews(db: Db, admin: SessionUser, id: string, input: NewsUpdate) {
  adminOnly(admin);
  await checkImage(db, input.image);
  // Publishing again keeps the first publication time (the list's order); unpublishing makes a draft.
  let publishedAt: string | null | undefined;
  if (input.published === false) publishedAt = null;
  if (input.published === true)
    publishedAt = (await findNews(db, id))?.published_at ?? new Date().toISOString();
  const news = await auditedUpdate(db, admin, newsRows, id, {
    title: input.title,
    body: input.body,
    image: input.image,
    published_at: publishedAt,
  });
  return { message: M.updated, news };
}

export async function removeNews(db: Db, admin: SessionUser, id: string) {
  adminOnly(admin);
  await auditedDelete(db, admin, newsRows, id);
  return { message: M.deleted };
}
