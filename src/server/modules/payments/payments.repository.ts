import type { Db } from '../../db/database.ts';
import type { CryptoPaymentTable, PaymentCreditTable } from '../../db/schema.ts';

// The only SQL of crypto payments.

export async function insertPayment(db: Db, row: CryptoPaymentTable): Promise<void> {
  await db.insertInto('crypto_payments').values(row).execute();
}

const withCredit = (db: Db) =>
  db
    .selectFrom('crypto_payments as p')
    .leftJoin('payment_credits as c', (join) =>
      join
        .onRef('c.provider', '=', 'p.provider')
        .onRef('c.provider_payment_id', '=', 'p.provider_payment_id'),
    )
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['c.amount_cents as credited_cents', 'u.fullname as member_name', 'u.email as member_email']);

export type PaymentRow = Awaited<ReturnType<ReturnType<typeof withCredit>['execute']>>[number];

export async function findPayment(db: Db, provider: string, providerPaymentId: string) {
  return withCredit(db)
    .where('p.provider', '=', provider)
    .where('p.provider_payment_id', '=', providerPaymentId)
    .executeTakeFirst();
}

export async function paymentsOfMember(db: Db, userId: string) {
  return withCredit(db).where('p.user_id', '=', userId).orderBy('p.created_at', 'desc').execute();
}

export async function listPayments(db: Db, filter: { status?: string; offset: number; limit: number }) {
  let rows = withCredit(db);
  let count = db.selectFrom('crypto_payments as p').select((eb) => eb.fn.countAll<number>().as('total'));
  if (filter.status) {
    rows = rows.where('p.payment_status', '=', filter.status);
    count = count.where('p.payment_status', '=', filter.status);
  }
  const [list, total] = await Promise.all([
    rows.orderBy('p.created_at', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: list, total: Number(total.total) };
}

/** Payments not yet in a final status, created since `sinceIso`: the background check's work list. */
export async function openPayments(db: Db, provider: string, sinceIso: string, finalRank: number) {
  return db
    .selectFrom('crypto_payments')
    .select(['provider_payment_id'])
    .where('provider', '=', provider)
    .where('status_rank', '<', finalRank)
    .where('created_at', '>=', sinceIso)
    .orderBy('created_at')
    .limit(500)
    .execute();
}

/**
 * Moves the status forward only: a higher rank replaces a lower one; the same status may refresh the
 * amount paid. An old status arriving late matches no row and changes nothing. Answers the status
 * stored afterwards (which is not the one given when it arrived late).
 */
export async function advanceStatus(
  trx: Db,
  id: string,
  change: { status: string; rank: number; actuallyPaid: string | null; at: string },
): Promise<string | undefined> {
  await trx
    .updateTable('crypto_payments')
    .set({
      payment_status: change.status,
      status_rank: change.rank,
      actually_paid: change.actuallyPaid,
      updated_at: change.at,
    })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('status_rank', '<', change.rank),
        eb.and([eb('status_rank', '=', change.rank), eb('payment_status', '=', change.status)]),
      ]),
    )
    .execute();
  const stored = await trx
    .selectFrom('crypto_payments')
    .select('payment_status')
    .where('id', '=', id)
    .executeTakeFirst();
  return stored?.payment_status;
}

export async function findCredit(trx: Db, provider: string, providerPaymentId: string) {
  return trx
    .selectFrom('payment_credits')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_payment_id', '=', providerPaymentId)
    .executeTakeFirst();
}

/** The exactly-once guard: false when the payment already has its credit (the primary key says so). */
export async function insertCreditIfMissing(trx: Db, row: PaymentCreditTable): Promise<boolean> {
  const result = await trx
    .insertInto('payment_credits')
    .values(row)
    .onConflict((oc) => oc.columns(['provider', 'provider_payment_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
