import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { insertAudit } from './audit.repository.ts';

// An admin-managed row (a salary tier, a reward rank) is created, changed and deleted the same way:
// inside one transaction with its audit entry (before/after, as the row is shown in answers), a
// missing row a 404, a taken unique name a 409, a change that changes nothing a 400.

export type AuditedRows<Row extends { updated_at: string }, Shown> = {
  /** The audit actions are `${action}.create`, `${action}.update` and `${action}.delete`. */
  action: string;
  targetType: string;
  /** The row as answers show it; the audit log keeps the same. */
  show: (row: Row) => Shown;
  find: (trx: Db, id: string) => Promise<Row | undefined>;
  insert: (trx: Db, row: Row) => Promise<void>;
  update: (trx: Db, id: string, change: Partial<Row>) => Promise<void>;
  remove: (trx: Db, id: string) => Promise<void>;
  /** A row still in use (paid at, claimed) stays, for that history: a 409 with `messages.inUse`. */
  inUse: (trx: Db, id: string) => Promise<boolean>;
  messages: {
    notFound: string;
    /** A unique violation (the name is taken). */
    taken: string;
    inUse: string;
    /** A change with no field set: a 400 on this field. */
    nothingToChange: { field: string; message: string };
  };
};

export async function auditedCreate<Row extends { updated_at: string }, Shown>(
  db: Db,
  admin: SessionUser,
  rows: AuditedRows<Row, Shown>,
  row: Row & { id: string },
): Promise<Shown> {
  await db
    .transaction()
    .execute(async (trx) => {
      await rows.insert(trx, row);
      await insertAudit(trx, {
        actorId: admin.user.id,
        action: `${rows.action}.create`,
        targetType: rows.targetType,
        targetId: row.id,
        after: rows.show(row),
      });
    })
    .catch(takenIs409(rows));
  return rows.show(row);
}

/** `change` names the columns to set; those left undefined stay as they are (all undefined: a 400). */
export async function auditedUpdate<Row extends { updated_at: string }, Shown>(
  db: Db,
  admin: SessionUser,
  rows: AuditedRows<Row, Shown>,
  id: string,
  change: { [K in keyof Row]?: Row[K] | undefined },
): Promise<Shown> {
  const set = Object.fromEntries(
    Object.entries(change).filter(([, value]) => value !== undefined),
  ) as Partial<Row>;
  if (Object.keys(set).length === 0) {
    const { field, message } = rows.messages.nothingToChange;
    throw badRequest([{ field, message }]);
  }
  return db
    .transaction()
    .execute(async (trx) => {
      const before = await rows.find(trx, id);
      if (!before) throw notFound(rows.messages.notFound);
      await rows.update(trx, id, { ...set, updated_at: new Date().toISOString() });
      const after = rows.show((await rows.find(trx, id)) as Row);
      await insertAudit(trx, {
        actorId: admin.user.id,
        action: `${rows.action}.update`,
        targetType: rows.targetType,
        targetId: id,
        before: rows.show(before),
        after,
      });
      return after;
    })
    .catch(takenIs409(rows));
}

export async function auditedDelete<Row extends { updated_at: string }, Shown>(
  db: Db,
  admin: SessionUser,
  rows: AuditedRows<Row, Shown>,
  id: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await rows.find(trx, id);
    if (!before) throw notFound(rows.messages.notFound);
    if (await rows.inUse(trx, id)) throw conflict(rows.messages.inUse);
    await rows.remove(trx, id);
    await insertAudit(trx, {
      actorId: admin.user.id,
      action: `${rows.action}.delete`,
      targetType: rows.targetType,
      targetId: id,
      before: rows.show(before),
    });
  });
}

const takenIs409 =
  <Row extends { updated_at: string }, Shown>(rows: AuditedRows<Row, Shown>) =>
  (error: unknown): never => {
    if (isUniqueViolation(error)) throw conflict(rows.messages.taken);
    throw error;
  };
