import type { Kysely } from 'kysely';

// Issue 14 item 4: two-factor sign-in (TOTP) and the settings admins change.
// - two_factor: one row per person who started or finished setting it up. secret_enc is the live
//   secret (null until confirmed), pending_secret_enc the one being set up; both AES-256-GCM
//   ciphertexts, never the secret itself. last_step is the last 30-second step a code was accepted
//   for: a guarded update (last_step < step) lets each code through once, even two at the same time.
// - two_factor_recovery_codes: only sha256 hashes; used_at makes each single use.
// - two_factor_challenges: the half-done sign-in between the password and the code, by the sha256 of
//   its cookie's token, with its wrong tries.
// - settings: named values as JSON text (API.md "Settings").

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_enc', 'text')
    .addColumn('pending_secret_enc', 'text')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_recovery_codes_user')
    .on('two_factor_recovery_codes')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_challenges_expiry')
    .on('two_factor_challenges')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['settings', 'two_factor_challenges', 'two_factor_recovery_codes', 'two_factor'])
    await db.schema.dropTable(table).execute();
}
