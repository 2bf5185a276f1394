import type { Db } from '../../db/database.ts';
import type { ActivationCodeTable } from '../../db/schema.ts';

// The only SQL of activation codes.

export async function insertCodes(trx: Db, rows: ActivationCodeTable[]): Promise<void> {
  await trx.insertInto('activation_codes').values(rows).execute();
}

export type CodeRow = ActivationCodeTable & {
  plan_name: string;
  used_by_name: string | null;
  used_by_email: string | null;
};

function codeRows(db: Db) {
  return db
    .selectFrom('activation_codes as c')
    .innerJoin('plans as p', 'p.id', 'c.plan_id')
    .leftJoin('users as u', 'u.id', 'c.used_by')
    .selectAll('c')
    .select(['p.name as plan_name', 'u.fullname as used_by_name', 'u.email as used_by_email']);
}

export async function findCodeRow(db: Db, id: string): Promise<CodeRow | undefined> {
  return (await codeRows(db).where('c.id', '=', id).executeTakeFirst()) as CodeRow | undefined;
}

export async function findCodeByText(db: Db, code: string): Promise<ActivationCodeTable | undefined> {
  return db.selectFrom('activation_codes').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function listCodes(db: Db, page: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    codeRows(db)
      .orderBy('c.created_at', 'desc')
      .orderBy('c.code')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('activation_codes')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as CodeRow[], total: Number(total.total) };
}

/** Marks a code used, only if nobody has: of two redemptions at once, one updates it and one finds it used. */
export async function claimCode(trx: Db, id: string, userId: string, nowIso: string): Promise<boolean> {
  const result = await trx
    .updateTable('activation_codes')
    .set({ used_by: userId, used_at: nowIso })
    .where('id', '=', id)
    .where('used_by', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function linkTopup(trx: Db, id: string, topupId: string): Promise<void> {
  await trx.updateTable('activation_codes').set({ topup_id: topupId }).where('id', '=', id).execute();
}
