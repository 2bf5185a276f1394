import { getAddress, verifyMessage } from 'viem';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { WEB3_CHAIN_ID, WEB3_MESSAGES, WEB3_PROOF_TTL_MS } from '../../../shared/web3.ts';
import type { Web3Challenge, Web3ProofRequest, Web3Wallet } from '../../../shared/web3-wallets.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { findUserById } from '../users/users.repository.ts';

// A member proves a wallet address is theirs by signing, with that wallet, a single-use message the
// server issued (personal_sign), checked with viem. A transfer sent from a proven address is then
// credited by itself (web3.service.ts apply()): the hash of a transfer is public, a signature by the
// sender's key is not. One member per address, so two members can never both claim the transfers from
// one wallet. The message is Sign-In with Ethereum (EIP-4361): it names our domain (from PUBLIC_URL,
// never the request's Host, which a relaying site could set), URI, chain, a nonce and its expiry, so a
// wallet can warn when a site other than ours asks for it.

/** Where the message says it comes from: PUBLIC_URL's authority and the URL itself. */
export type ProofOrigin = { domain: string; uri: string };
export const proofOriginOf = (publicUrl: string): ProofOrigin => ({
  domain: new URL(publicUrl).host,
  uri: publicUrl,
});

/** POST /web3/wallets/challenge: the message to sign, valid WEB3_PROOF_TTL_MS and once. */
export async function issueChallenge(
  db: Db,
  asker: SessionUser,
  input: { address: string },
  origin: ProofOrigin,
): Promise<Web3Challenge> {
  const member = await findUserById(db, asker.user.id);
  const now = new Date();
  const id = newId();
  const expiresAt = new Date(now.getTime() + WEB3_PROOF_TTL_MS);
  const message = createSiweMessage({
    domain: origin.domain,
    uri: origin.uri,
    address: getAddress(input.address),
    chainId: WEB3_CHAIN_ID,
    // EIP-4361 nonces are letters and digits: the row id without its dashes (122 random bits or so).
    nonce: id.replaceAll('-', ''),
    version: '1',
    issuedAt: now,
    expirationTime: expiresAt,
    statement: `Prove this wallet is yours for member ${member?.username ?? asker.user.id}. Signing costs nothing and moves no money.`,
  });
  await db
    .insertInto('web3_wallet_challenges')
    .values({
      id,
      user_id: asker.user.id,
      address: input.address,
      message,
      expires_at: expiresAt.toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { message, expires_at: expiresAt.toISOString() };
}

async function signedChallenge(
  db: Db,
  asker: SessionUser,
  input: Web3ProofRequest,
  now: string,
  origin: ProofOrigin,
) {
  const open = await db
    .selectFrom('web3_wallet_challenges')
    .select(['id', 'message'])
    .where('user_id', '=', asker.user.id)
    .where('address', '=', input.address)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
  if (open.length === 0) return { kind: 'none' as const };
  for (const challenge of open) {
    // The stored message is ours, but it is read back as a wallet would: for our domain, this address,
    // its own nonce, and not expired.
    const fields = parseSiweMessage(challenge.message);
    const current = validateSiweMessage({
      message: fields,
      address: getAddress(input.address),
      domain: origin.domain,
      nonce: challenge.id.replaceAll('-', ''),
      time: new Date(now),
    });
    if (!current || fields.chainId !== WEB3_CHAIN_ID) continue;
    const valid = await verifyMessage({
      address: input.address as `0x${string}`,
      message: challenge.message,
      signature: input.signature as `0x${string}`,
    }).catch(() => false);
    if (valid) return { kind: 'signed' as const, id: challenge.id };
  }
  return { kind: 'invalid' as const };
}

/** POST /web3/wallets: 201 proven now, 200 already yours, 400 a bad or expired signature, 409 another's. */
export async function proveWallet(
  db: Db,
  asker: SessionUser,
  input: Web3ProofRequest,
  origin: ProofOrigin,
): Promise<{ statusCode: 200 | 201; body: { message: string; wallet: Web3Wallet } }> {
  const now = new Date().toISOString();
  // The signature is checked before any write: it reads no database state but the message.
  const found = await signedChallenge(db, asker, input, now, origin);
  if (found.kind === 'none') throw badRequest([{ field: 'signature', message: WEB3_MESSAGES.proofExpired }]);
  if (found.kind === 'invalid')
    throw badRequest([{ field: 'signature', message: WEB3_MESSAGES.proofInvalid }]);
  return db.transaction().execute(async (trx) => {
    // Single use: of two requests with one signature, one wins.
    const used = await trx
      .updateTable('web3_wallet_challenges')
      .set({ used_at: now })
      .where('id', '=', found.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1)
      throw badRequest([{ field: 'signature', message: WEB3_MESSAGES.proofExpired }]);
    const inserted = await trx
      .insertInto('web3_wallets')
      .values({ address: input.address, user_id: asker.user.id, proven_at: now })
      .onConflict((oc) => oc.column('address').doNothing())
      .returning(['address', 'proven_at'])
      .executeTakeFirst();
    if (inserted)
      return { statusCode: 201 as const, body: { message: WEB3_MESSAGES.proofOk, wallet: inserted } };
    const owner = await trx
      .selectFrom('web3_wallets')
      .select(['user_id', 'address', 'proven_at'])
      .where('address', '=', input.address)
      .executeTakeFirstOrThrow();
    if (owner.user_id !== asker.user.id) throw conflict(WEB3_MESSAGES.proofTaken);
    return {
      statusCode: 200 as const,
      body: {
        message: WEB3_MESSAGES.proofAlready,
        wallet: { address: owner.address, proven_at: owner.proven_at },
      },
    };
  });
}

/** GET /web3/wallets: the asker's proven addresses. */
export async function myWallets(db: Db, asker: SessionUser): Promise<{ wallets: Web3Wallet[] }> {
  const wallets = await db
    .selectFrom('web3_wallets')
    .select(['address', 'proven_at'])
    .where('user_id', '=', asker.user.id)
    .orderBy('proven_at', 'desc')
    .execute();
  return { wallets };
}

/** Who proved this address (lower case), if anyone; read inside the transaction that credits. */
export async function provenOwner(db: Db, address: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('web3_wallets')
    .select('user_id')
    .where('address', '=', address)
    .executeTakeFirst();
  return row?.user_id;
}
