import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createDatabase, type Db } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { adminQuery, TEST_DATABASE_URL } from '../helpers/postgres.ts';

// A server on PostgreSQL with a schema of its own (DATABASE_SCHEMA) migrates that schema and reads no
// other: several deployments (or test runs) share one database, each in its schema, and one of them
// being made, migrated or dropped must not stop another's start. Pinned to PostgreSQL (schemas are
// PostgreSQL's): it runs once, in api-sqlite.

const made: string[] = [];
const opened: Db[] = [];

async function newSchema(): Promise<string> {
  const schema = `mig_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  made.push(schema);
  return schema;
}

function open(schema: string): Db {
  const { db } = createDatabase({ databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, dataDir: '' });
  opened.push(db);
  return db;
}

const tablesOf = async (schema: string) =>
  (
    await adminQuery<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = $1 order by table_name',
      [schema],
    )
  ).map((row) => row.table_name);

afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  for (const schema of made) await adminQuery(`drop schema if exists ${schema} cascade`);
});

it("migrates its own schema fully when another schema already has the migrator's tables", async () => {
  const first = await newSchema();
  await migrateToLatest(open(first), first);
  const second = await newSchema();
  const db = open(second);
  await migrateToLatest(db, second);

  const tables = await tablesOf(second);
  expect(tables).toEqual(await tablesOf(first));
  expect(tables).toContain('users');
  expect(tables).toContain('ledger_accounts');
  // The migrator sees this schema only.
  const seen = await db.introspection.getTables({ withInternalKyselyTables: true });
  expect(new Set(seen.map((table) => table.schema))).toEqual(new Set([second]));
  expect(await db.introspection.getSchemas()).toEqual([{ name: second }]);
});

it('starts while other schemas are made and dropped at the same moment', async () => {
  // Another client makes and drops schemas with tables in a loop, as other runs on the database do.
  const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await churn.connect();
  let stop = false;
  let churned = 0;
  const churning = (async () => {
    while (!stop) {
      const other = `mig_churn_${randomBytes(6).toString('hex')}`;
      await churn.query(`create schema ${other}`);
      await churn.query(`create table ${other}.t (id serial primary key, a text, b int)`);
      await churn.query(`drop schema ${other} cascade`);
      churned++;
    }
  })();
  try {
    const migrated: string[] = [];
    for (let i = 0; i < 3; i++) {
      const schema = await newSchema();
      await migrateToLatest(open(schema), schema);
      migrated.push(schema);
    }
    for (const schema of migrated) expect(await tablesOf(schema)).toContain('users');
  } finally {
    stop = true;
    await churning;
    await churn.end();
  }
  expect(churned).toBeGreaterThan(0);
  // The churn dropped what it made.
  const left = await adminQuery("select nspname from pg_namespace where nspname like 'mig_churn_%'");
  expect(left).toEqual([]);
  // A statement on each migrated database still answers.
  for (const db of opened) await sql`select 1`.execute(db);
});
