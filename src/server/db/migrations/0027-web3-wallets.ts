import type { Kysely } from 'kysely';

// Issue 18: a member proves a wallet address is theirs by signing a message the server issued
// (personal_sign, checked with viem). A transfer from a proven address is then credited by itself,
// as one from the member's saved BEP20 address is.
// - web3_wallet_challenges: the message to sign, single use, valid for a few minutes.
// - web3_wallets: one row per proven address (lower case). The UNIQUE address means two members can
//   never both claim the deposits sent from one address.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web3_wallet_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('web3_wallet_challenges_user')
    .on('web3_wallet_challenges')
    .columns(['user_id', 'address', 'created_at'])
    .execute();
  await db.schema
    .createTable('web3_wallets')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('proven_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web3_wallets_user').on('web3_wallets').columns(['user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web3_wallets').execute();
  await db.schema.dropTable('web3_wallet_challenges').execute();
}
