import { type Achiever, type AchieverInput, ACHIEVER_MESSAGES as M } from '../../../shared/achievers.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { AchieverTable } from '../../db/schema.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { findUpload } from '../uploads/uploads.repository.ts';
import { UPLOADS_URL_PREFIX } from '../uploads/uploads.service.ts';
import { deleteAchiever, findAchiever, insertAchiever, listAchieverRows } from './achievers.repository.ts';

// The achievers gallery: admins add and remove pictures (audited); everyone signed in sees them.

const toAchiever = (row: AchieverTable): Achiever => ({
  id: row.id,
  name: row.name,
  rank: row.rank,
  image_url: `${UPLOADS_URL_PREFIX}${row.image}`,
  created_at: row.created_at,
});

export async function listAchievers(db: Db) {
  return { achievers: (await listAchieverRows(db)).map(toAchiever) };
}

export async function addAchiever(db: Db, admin: SessionUser, input: AchieverInput) {
  if (admin.user.role !== 'admin') throw forbidden();
  const upload = await findUpload(db, input.image);
  if (upload?.purpose !== 'achiever') throw badRequest([{ field: 'image', message: M.imageUnknown }]);
  const row: AchieverTable = {
    id: newId(),
    name: input.name,
    rank: input.rank,
    image: input.image,
    created_by: admin.user.id,
    created_at: new Date().toISOString(),
  };
  await db.transaction().execute(async (trx) => {
    await insertAchiever(trx, row);
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'achiever.add',
      targetType: 'achiever',
      targetId: row.id,
      after: toAchiever(row),
    });
  });
  return { message: M.added, achiever: toAchiever(row) };
}

export async function removeAchiever(db: Db, admin: SessionUser, id: string) {
  if (admin.user.role !== 'admin') throw forbidden();
  return db.transaction().execute(async (trx) => {
    const row = await findAchiever(trx, id);
    if (!row) throw notFound(M.notFound);
    await deleteAchiever(trx, id);
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: 'achiever.remove',
      targetType: 'achiever',
      targetId: id,
      before: toAchiever(row),
    });
    return { message: M.deleted };
  });
}
