import { type RawBuilder, sql } from 'kysely';
import { KIND_OF_TYPE, type TransactionStatus } from '../../../shared/transactions.ts';
import type { Db } from '../../db/database.ts';

// The only SQL of transactions. A transaction is a ledger row (phase 'single' or 'pending') that one
// of a member's accounts takes part in, seen from that member ("the perspective member"). Nothing is
// written here: type, source and status are derived from the ledger and the rows it references.
// Plain SQL that reads the same on SQLite and PostgreSQL (`||`, substr, lower, like ... escape).

const KINDS = Object.values(KIND_OF_TYPE);

export type TransactionFilter = {
  kind?: string;
  status?: TransactionStatus;
  source?: string;
  search?: string;
  direction?: 'credit' | 'debit';
  /** Admin: one member by id, e-mail or username, on either side of the transaction. */
  user?: string;
};

export type TransactionRow = {
  id: string;
  kind: string;
  amount_cents: number | string | bigint;
  description: string | null;
  created_at: string;
  status: TransactionStatus;
  direction: 'credit' | 'debit';
  source: string;
  user_id: string;
  username: string;
};

/**
 * Every transaction with its perspective member `pid`: the given member, or (for admin lists, where
 * `memberId` is null) the credited member, else the debited one, so each ledger row is listed once.
 */
function derived(memberId: string | null) {
  const pid = memberId === null ? sql`coalesce(ca.user_id, da.user_id)` : sql`${memberId}`;
  // By account id: the ledger's debit and credit indexes find a member's rows without reading the rest.
  const accounts = sql`select id from ledger_accounts where user_id = ${memberId}`;
  const mine =
    memberId === null
      ? sql`1 = 1`
      : sql`(t.debit_account_id in (${accounts}) or t.credit_account_id in (${accounts}))`;
  // The other side of the row, from the perspective member.
  const other = sql`case when da.user_id = ${pid} then ca.user_id else da.user_id end`;
  const otherCode = sql`case when da.user_id = ${pid} then ca.code else da.code end`;
  return sql`select t.id, t.kind, t.amount_cents, t.description, t.created_at,
      case when t.phase = 'single' or s.phase = 'post' then 'completed'
        when s.phase = 'void' then 'failed' else 'pending' end as status,
      case when da.user_id = ${pid} then 'debit' else 'credit' end as direction,
      case
        when t.kind = 'level_income' then coalesce(lu.username, 'income')
        when t.kind = 'activation_income' then coalesce(bu.username, 'income')
        when t.kind = 'roi' then coalesce(p.name, 'income')
        when ${other} is not null and ${other} <> ${pid} then ou.username
        when t.kind = 'plan_purchase' then coalesce(p.name, pu.username)
        when ${other} = ${pid} then pu.username
        else replace(${otherCode}, 'platform:', '')
      end as source,
      pu.id as user_id, pu.username, ${other} as other_id
    from ledger_transfers t
    join ledger_accounts da on da.id = t.debit_account_id
    join ledger_accounts ca on ca.id = t.credit_account_id
    left join ledger_transfers s on s.pending_id = t.id
    join users pu on pu.id = ${pid}
    left join users ou on ou.id = ${other}
    left join topups tp on t.reference like 'topup:%' and tp.id = substr(t.reference, 7)
    left join plans p on p.id = tp.plan_id
    left join users bu on bu.id = tp.user_id
    left join level_incomes li on t.kind = 'level_income' and li.id = t.id
    left join users lu on lu.id = li.source_user_id
    where t.phase in ('single', 'pending')
      and t.kind in (${sql.join(KINDS)})
      and ${mine}`;
}

const likeText = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditions(filter: TransactionFilter): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  if (filter.kind) where.push(sql`x.kind = ${filter.kind}`);
  if (filter.status) where.push(sql`x.status = ${filter.status}`);
  if (filter.direction) where.push(sql`x.direction = ${filter.direction}`);
  if (filter.source) where.push(sql`lower(x.source) = ${filter.source.toLowerCase()}`);
  if (filter.search) {
    const like = likeText(filter.search);
    where.push(sql`(lower(x.source) like ${like} escape '\\' or lower(coalesce(x.description, '')) like ${like}
      escape '\\' or lower(x.id) like ${like} escape '\\')`);
  }
  if (filter.user) {
    const who = filter.user.toLowerCase();
    // Either side: a transfer listed under its recipient is the sender's transaction too.
    const members = sql`select id from users where id = ${filter.user} or lower(email) = ${who} or lower(username) = ${who}`;
    where.push(sql`(x.user_id in (${members}) or x.other_id in (${members}))`);
  }
  return where;
}

/** One page of transactions, newest first, and how many match in all. */
export async function findTransactions(
  db: Db,
  memberId: string | null,
  filter: TransactionFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: TransactionRow[]; total: number }> {
  const where = conditions(filter);
  const whereSql = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const [rows, count] = await Promise.all([
    sql<TransactionRow>`select x.* from (${derived(memberId)}) x ${whereSql}
      order by x.created_at desc, x.id desc limit ${page.limit} offset ${page.offset}`.execute(db),
    sql<{
      total: number | string;
    }>`select count(*) as total from (${derived(memberId)}) x ${whereSql}`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(count.rows[0]?.total ?? 0) };
}

export type MatrixCell = {
  month: string;
  kind: string;
  count: number | string;
  amount_cents: number | string;
};

/** Per month (UTC) and kind: how many transactions and how much, leaving out rejected ones. */
export async function transactionMatrix(db: Db, month: string | undefined): Promise<MatrixCell[]> {
  const inMonth = month ? sql`and t.created_at like ${`${month}-%`}` : sql``;
  const { rows } = await sql<MatrixCell>`select substr(t.created_at, 1, 7) as month, t.kind,
      count(*) as count, sum(t.amount_cents) as amount_cents
    from ledger_transfers t
    left join ledger_transfers s on s.pending_id = t.id
    where t.phase in ('single', 'pending') and t.kind in (${sql.join(KINDS)})
      and (s.phase is null or s.phase <> 'void') ${inMonth}
    group by substr(t.created_at, 1, 7), t.kind
    order by month desc, t.kind`.execute(db);
  return rows;
}

/** The kind of a ledger row that can be settled (a pending one), or undefined. */
export async function findLedgerKind(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('ledger_transfers')
    .select('kind')
    .where('id', '=', id)
    .where('phase', 'in', ['single', 'pending'])
    .executeTakeFirst();
  return row?.kind;
}
