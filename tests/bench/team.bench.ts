import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Db, isPostgres } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { backfillTeamTotals } from '../../src/server/db/migrations/0024-team-totals.ts';
import type { UserTable } from '../../src/server/db/schema.ts';
import type { SessionUser } from '../../src/server/http/session.ts';
import { membersWithBusiness, searchTeam, teamStats } from '../../src/server/modules/team/team.repository.ts';
import { teamTree } from '../../src/server/modules/team/team.service.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { formatCents } from '../../src/shared/money.ts';

// npm run bench:team: the team's figures at scale (team issue). Builds 100,000 members in one sponsor
// tree exactly 20 levels deep with their investments (rows in topups, as the team SQL counts them),
// written straight into the database in batches, then times through the real service functions:
//   - the tree's first level, what GET /referral/full/{id}?depth=1 answers (teamTree: the member and
//     each direct member with team size and team business), asked by the member themselves;
//   - a member's team business (teamStats for one id).
// Each for 1,000 members drawn uniformly from the tree (the members' p99), for 10 members drawn from
// each level (how the time grows with the team), for the root, whose team is the whole tree, and for
// the 10 members with the largest teams, 20 times each; and the rank holders' query (membersWithBusiness)
// 20 times. p50, p99 and max per database; numbers, not pass/fail. On SQLite and on
// PostgreSQL (BENCH_DIALECTS, default both; BENCH_DATABASE_URL, default the local test database).
// The figures are the stored totals (team_totals): the bulk load fills them with the migration's
// backfill (the recursive query), and the bench checks the root's and the largest teams' figures
// against the recursive query. Last, the cost on the write side: sign-ups through createUser (the
// sign-up's code path, totals included) under members of the deepest level.
//
// The shape: the root, then levels 1 to 20 growing by the same factor (about 1.73) so that they hold
// 99,999 members in all (2 on level 1, 3 on level 2, 5, 8, 14, ... 41,218 on level 20). Each member's sponsor is
// drawn from the level above, weighted towards those who joined first (index = n * u^2, u uniform), so
// older members have more direct members than newer ones and many have none, as in a referral tree.
// A member has 0 to 3 investments (i mod 4).

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const LEVELS = Number(process.env.BENCH_LEVELS ?? 20);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1000);
const PER_LEVEL = Number(process.env.BENCH_PER_LEVEL ?? 10);
const ROOT_REPEATS = Number(process.env.BENCH_ROOT_REPEATS ?? 20);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 200);
const BATCH = 500;

/** The team's figures by the recursive query the team read before the stored totals: the check. */
async function recursiveStats(db: Db, id: string) {
  const { rows } = await sql<{ team_size: string | number; business: string | number | null }>`
    with recursive closure(id, dist) as (
      select id, 0 from users where id = ${id}
      union all
      select u.id, c.dist + 1 from users u join closure c on u.sponsor_id = c.id where u.role || '' = 'user'
    )
    select count(*) - 1 as team_size,
      sum((select sum(t.amount_cents) from topups t where t.user_id = c.id and c.dist > 0)) as business
    from closure c`.execute(db);
  return { team_size: Number(rows[0]?.team_size), team_business_cents: Number(rows[0]?.business ?? 0) };
}

/** A small seeded generator (mulberry32), so every run builds the same tree. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many members each level holds: level 0 the root, levels 1..LEVELS growing geometrically. */
function levelSizes(): number[] {
  const below = MEMBERS - 1;
  const total = (r: number) => {
    let sum = 0;
    for (let k = 1; k <= LEVELS; k += 1) sum += r ** k;
    return sum;
  };
  let lo = 1;
  let hi = 10;
  for (let i = 0; i < 100; i += 1) {
    const mid = (lo + hi) / 2;
    if (total(mid) < below) lo = mid;
    else hi = mid;
  }
  const sizes = [1];
  let cumulative = 0;
  let placed = 0;
  for (let k = 1; k <= LEVELS; k += 1) {
    cumulative += lo ** k;
    const upTo = k === LEVELS ? below : Math.round((cumulative * below) / total(lo));
    sizes.push(Math.max(upTo - placed, 1));
    placed += sizes[k] as number;
  }
  return sizes;
}

const memberId = (i: number) => `bench-team-${String(i).padStart(6, '0')}`;

type Tree = { sponsor: (number | null)[]; level: number[]; firstOfLevel: number[]; sizes: number[] };

function makeTree(): Tree {
  const sizes = levelSizes();
  const next = random(20_261_127);
  const sponsor: (number | null)[] = [null];
  const level = [0];
  const firstOfLevel = [0];
  let first = 0;
  for (let k = 1; k < sizes.length; k += 1) {
    const above = firstOfLevel[k - 1] as number;
    const aboveSize = sizes[k - 1] as number;
    first += aboveSize;
    firstOfLevel.push(first);
    for (let j = 0; j < (sizes[k] as number); j += 1) {
      // Earlier members of the level above are drawn more often than later ones.
      sponsor.push(above + Math.floor(aboveSize * next() ** 2));
      level.push(k);
    }
  }
  return { sponsor, level, firstOfLevel, sizes };
}

async function insertInBatches<T>(db: Db, table: string, rows: T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto(table as never)
      .values(rows.slice(i, i + BATCH) as never)
      .execute();
  }
}

function userRow(i: number, tree: Tree, joined: number): UserTable {
  const at = new Date(joined + i * 1000).toISOString();
  const sponsor = tree.sponsor[i];
  return {
    id: memberId(i),
    username: `team_${i}`,
    email: `team_${i}@example.com`,
    password_hash: 'not-a-password',
    role: 'user',
    status: 'unblock',
    is_active: i % 4 === 0 ? 'inactive' : 'active',
    roi_status: 'open',
    level_status: 'open',
    fullname: `Team Member ${i}`,
    phone: '+15550100200',
    sponsor_id: sponsor === null || sponsor === undefined ? null : memberId(sponsor),
    refferal_code: `TEAM${i}`,
    created_at: at,
    updated_at: at,
    paid_member: i % 4 === 0 ? 0 : 1,
  } as UserTable;
}

/** The members in order of joining (every sponsor before their members), a plan and the investments. */
async function build(db: Db, tree: Tree): Promise<number> {
  const joined = Date.parse('2025-01-01T00:00:00.000Z');
  const now = new Date().toISOString();
  let investments = 0;
  await db.transaction().execute(async (trx) => {
    await insertInBatches(
      trx,
      'users',
      Array.from({ length: MEMBERS }, (_, i) => userRow(i, tree, joined)),
    );
    await trx
      .insertInto('plans')
      .values({
        id: 'bench-plan',
        kind: 'plan',
        name: 'Bench plan',
        min_amount_cents: 1000,
        max_amount_cents: 10_000_000,
        roi_bp: 50,
        duration_days: 365,
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const transfers = [];
    const topups = [];
    for (let i = 0; i < MEMBERS; i += 1) {
      for (let k = 0; k < i % 4; k += 1) {
        const id = `bench-topup-${i}-${k}`;
        const amountCents = 10_000 + ((i * 7 + k * 13) % 90) * 1_111;
        const at = new Date(joined + i * 1000 + (k + 1) * 60_000).toISOString();
        // The money side is not what is measured: one platform account to another keeps the ledger valid.
        transfers.push({
          id: `bench-buy-${id}`,
          debit_account_id: 'platform:adjustments',
          credit_account_id: 'platform:income',
          amount_cents: amountCents,
          phase: 'single',
          pending_id: null,
          kind: 'plan_purchase',
          reference: `topup:${id}`,
          description: 'Bench plan',
          created_by: null,
          created_at: at,
        });
        topups.push({
          id,
          user_id: memberId(i),
          userby_id: memberId(i),
          plan_id: 'bench-plan',
          type: 'topup',
          amount_cents: amountCents,
          roi_bp: 50,
          duration_days: 365,
          roi_paid_cents: 0,
          roi_days_paid: 0,
          status: 'active',
          ledger_transfer_id: `bench-buy-${id}`,
          created_at: at,
        });
      }
    }
    investments = topups.length;
    await insertInBatches(trx, 'ledger_transfers', transfers);
    await insertInBatches(trx, 'topups', topups);
  });
  // PostgreSQL's autovacuum keeps statistics and the visibility map (index-only scans) of tables this
  // size; right after a bulk load it may not have run yet. SQLite gets no ANALYZE: the server never runs one.
  const [backfillMs] = await timed(() => backfillTeamTotals(db as never));
  console.log(`team totals backfilled in ${(backfillMs / 1000).toFixed(1)} s`);
  if (isPostgres(db)) await sql`vacuum analyze`.execute(db);
  return investments;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

function summary(durations: number[]) {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    n: sorted.length,
    'p50 ms': ms(percentile(sorted, 50)),
    'p99 ms': ms(percentile(sorted, 99)),
    'max ms': ms(sorted[sorted.length - 1] as number),
  };
}

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await f();
  return [performance.now() - started, result];
}

/** The session of a member asking about their own team, as the routes pass it. */
async function askerFor(db: Db, id: string): Promise<SessionUser> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { sessionId: 'bench', expiresAt: '2999-01-01T00:00:00.000Z', user };
}

type Row = Record<string, string | number>;

async function bench(label: string, db: Db, schema: string | undefined, tree: Tree): Promise<Row[]> {
  await migrateToLatest(db, schema);
  const [buildMs, investments] = await timed(() => build(db, tree));
  console.log(
    `${label}: ${MEMBERS} members, ${investments} investments, ${tree.sizes.length - 1} levels built in ${(buildMs / 1000).toFixed(1)} s`,
  );

  const next = random(7);
  const draw = (from: number, count: number) => from + Math.floor(next() * count);
  // The members' p99: members drawn uniformly from the whole tree (most members are on the deep levels,
  // as in any referral tree). Then a few from each level, which shows how the time grows with the team.
  const sample = Array.from({ length: SAMPLES }, () => draw(1, MEMBERS - 1));
  const byLevel = tree.sizes
    .slice(1)
    .map((size, k) =>
      Array.from({ length: PER_LEVEL }, () => draw(tree.firstOfLevel[k + 1] as number, size)),
    );

  const askers = new Map<number, SessionUser>();
  for (const i of [0, ...sample, ...byLevel.flat()])
    if (!askers.has(i)) askers.set(i, await askerFor(db, memberId(i)));
  const treeOf = (i: number) => teamTree(db, askers.get(i) as SessionUser, memberId(i), { depth: 1 });
  const businessOf = (i: number) => teamStats(db, [memberId(i)]);

  /** Times both calls for each member in turn; returns the durations and each member's team size. */
  async function measure(members: number[]) {
    const trees: number[] = [];
    const businesses: number[] = [];
    const teamSizes: number[] = [];
    for (const i of members) {
      trees.push((await timed(() => treeOf(i)))[0]);
      const [took, stats] = await timed(() => businessOf(i));
      businesses.push(took);
      teamSizes.push(stats.get(memberId(i))?.team_size ?? 0);
    }
    return { trees, businesses, teamSizes };
  }

  // Warm-up, so the first samples do not pay for cold caches and plans; and a check that the tree's
  // figures are teamStats' for the member and each direct member.
  await measure([...sample.slice(0, 20), 0]);
  for (const i of [0, ...sample.slice(0, 20)]) {
    const { tree: node } = await treeOf(i);
    const stats = await teamStats(db, [node.id, ...(node.children ?? []).map((c) => c.id)]);
    for (const shown of [node, ...(node.children ?? [])]) {
      const s = stats.get(shown.id);
      if (s?.team_size !== shown.team_size || formatCents(s.team_business_cents) !== shown.team_business)
        throw new Error(`the tree's figures for ${shown.id} are not teamStats'`);
    }
  }

  // The ten largest teams below the root, and a check that the stored figures of the root and of
  // each of them are the recursive query's.
  const largest = (
    await db
      .selectFrom('team_totals')
      .select('user_id')
      .where('user_id', '<>', memberId(0))
      .orderBy('team_size', 'desc')
      .orderBy('user_id')
      .limit(10)
      .execute()
  ).map((r) => Number(r.user_id.slice('bench-team-'.length)));
  for (const i of [0, ...largest]) {
    const fresh = await recursiveStats(db, memberId(i));
    const kept = (await teamStats(db, [memberId(i)])).get(memberId(i));
    if (kept?.team_size !== fresh.team_size || kept.team_business_cents !== fresh.team_business_cents)
      throw new Error(`the stored totals of ${memberId(i)} are not the recursive query's`);
  }
  for (const i of largest) if (!askers.has(i)) askers.set(i, await askerFor(db, memberId(i)));

  const members = await measure(sample);
  const root = await measure(Array.from({ length: ROOT_REPEATS }, () => 0));
  if (root.teamSizes[0] !== MEMBERS - 1)
    throw new Error(`the root's team has ${root.teamSizes[0]} members, not ${MEMBERS - 1}`);
  const top = await measure(largest.flatMap((i) => Array.from({ length: ROOT_REPEATS }, () => i)));
  const topSizes = [...new Set(top.teamSizes)].sort((a, b) => b - a);
  const levels: Row[] = [];
  for (const [k, drawn] of byLevel.entries()) {
    const m = await measure(drawn);
    const sizes = [...m.teamSizes].sort((a, b) => a - b);
    levels.push({
      level: k + 1,
      'members on it': tree.sizes[k + 1] as number,
      'team size, median of drawn': percentile(sizes, 50),
      'largest drawn': sizes[sizes.length - 1] as number,
      'tree p50 ms': ms(
        percentile(
          [...m.trees].sort((a, b) => a - b),
          50,
        ),
      ),
      'tree max ms': ms(Math.max(...m.trees)),
      'business p50 ms': ms(
        percentile(
          [...m.businesses].sort((a, b) => a - b),
          50,
        ),
      ),
      'business max ms': ms(Math.max(...m.businesses)),
    });
  }
  console.log(`${label}, ${PER_LEVEL} members drawn from each level:`);
  console.table(levels);

  // Once, for the record: the search over the root's whole team. The rank holders' query, 20 times.
  const [searchMs] = await timed(() => searchTeam(db, memberId(0), 'team_9999', 20));
  const holdersTimes: number[] = [];
  let holders = 0;
  for (let k = 0; k < ROOT_REPEATS; k += 1) {
    const [took, rows] = await timed(() => membersWithBusiness(db, 100_000_00));
    holdersTimes.push(took);
    holders = rows.length;
  }
  console.log(
    `${label}: the ten largest teams below the root: ${topSizes.join(', ')} members; search over the root's team ${ms(searchMs)} ms; members with team business of 100,000 or more: ${holders}`,
  );

  // The write side: sign-ups through the sign-up's code path (users row and team totals, one
  // transaction) under members of the deepest level, 20 sponsors up to the root.
  const deepest = tree.sizes.length - 1;
  const signUps: number[] = [];
  for (let k = 0; k < SIGNUPS; k += 1) {
    const sponsor = draw(tree.firstOfLevel[deepest] as number, tree.sizes[deepest] as number);
    const [took] = await timed(() =>
      createUser(db, {
        username: `late_${k}`,
        email: `late_${k}@example.com`,
        password_hash: 'not-a-password',
        role: 'user',
        fullname: `Late Member ${k}`,
        phone: '+15550100200',
        sponsor_id: memberId(sponsor),
      }),
    );
    signUps.push(took);
  }
  const rootAfter = (await teamStats(db, [memberId(0)])).get(memberId(0));
  if (rootAfter?.team_size !== MEMBERS - 1 + SIGNUPS)
    throw new Error(`after ${SIGNUPS} sign-ups the root's team has ${rootAfter?.team_size} members`);

  const sampleLabel = `${SAMPLES} drawn uniformly`;
  return [
    { database: label, call: 'tree, first level', members: sampleLabel, ...summary(members.trees) },
    { database: label, call: 'team business', members: sampleLabel, ...summary(members.businesses) },
    { database: label, call: 'tree, first level', members: 'root (whole tree)', ...summary(root.trees) },
    { database: label, call: 'team business', members: 'root (whole tree)', ...summary(root.businesses) },
    { database: label, call: 'tree, first level', members: '10 largest teams', ...summary(top.trees) },
    { database: label, call: 'team business', members: '10 largest teams', ...summary(top.businesses) },
    { database: label, call: 'rank holders', members: 'all (membersWithBusiness)', ...summary(holdersTimes) },
    { database: label, call: 'sign-up (createUser)', members: `under level ${deepest}`, ...summary(signUps) },
  ];
}

const tree = makeTree();
console.log(`levels (root first): ${tree.sizes.join(', ')}`);
const results: Row[] = [];

if (DIALECTS.includes('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-team-'));
  const { db } = createDatabase({ databaseUrl: undefined, databaseSchema: undefined, dataDir: dir });
  try {
    results.push(...(await bench('SQLite', db, undefined, tree)));
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (DIALECTS.includes('postgres')) {
  const schema = `bench_team_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const { db } = createDatabase({ databaseUrl: POSTGRES_URL, databaseSchema: schema, dataDir: tmpdir() });
  try {
    results.push(...(await bench('PostgreSQL', db, schema, tree)));
  } finally {
    await db.destroy();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

console.table(results);
