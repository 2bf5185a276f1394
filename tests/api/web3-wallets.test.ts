import { randomBytes } from 'node:crypto';
import { type Address, getAddress, parseUnits } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB3_MESSAGES } from '../../src/shared/web3.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { type EvmChain, startEvmChain } from '../helpers/evm-chain.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Proving a wallet by signing: a member asks for a Sign-In with Ethereum (EIP-4361) message, signs it with
// the wallet (personal_sign on a real local chain's unlocked account) and the server checks it with viem.
// A transfer from a proven wallet is then credited by itself after 12 confirmations, though the member
// never saved that address; without the proof it waits for an admin (web3-deposits.test.ts).
// Runs on SQLite and on PostgreSQL.

type Member = Awaited<ReturnType<typeof signedInMember>>;

const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as Address;

let chain: EvmChain;
let token: Address;
const depositAddress = randomAddress();
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  chain = await startEvmChain();
  token = await chain.deployToken('USDT', 18);
  server = await startServer({
    BSC_RPC_URL: chain.rpcUrl,
    USDT_CONTRACT: token,
    DEPOSIT_ADDRESS: depositAddress,
    WEB3_POLL_MS: '0',
    WALLETCONNECT_PROJECT_ID: 'test-project-id',
    WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:9/relay',
    PUBLIC_URL: 'https://members.example.test',
  });
  admin = await signedInAdminClient(server.baseUrl);
  // The wallet holds USDT of its own to send.
  await chain.transfer(token, chain.accounts.wallet, parseUnits('100', 18));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await chain?.stop();
});

const challenge = (member: Member, address: string) =>
  member.client.post('/web3/wallets/challenge', { address });

async function prove(member: Member, address: Address, signer: Address = address) {
  const issued = await challenge(member, address);
  expect(issued.status, issued.text).toBe(201);
  const signature = await chain.signMessage(issued.body.message, signer);
  return { signature, res: await member.client.post('/web3/wallets', { address, signature }) };
}

const businessOf = async (member: Member) => (await member.client.get('/wallet/balance')).body.business;

describe('proving a wallet by signing', () => {
  it('proves an address once, and a transfer from it is then credited without an admin', async () => {
    const member = await signedInMember(server.baseUrl);
    const address = chain.accounts.wallet;

    // Before the proof: a transfer from the wallet waits for an admin.
    const before = await chain.transfer(token, depositAddress, parseUnits('3', 18), address);
    await chain.mine(12);
    const waiting = await member.client.post('/web3/deposits', { chain_id: 56, tx_hash: before });
    expect(waiting.body.deposit).toMatchObject({ status: 'awaiting_admin', amount: '3.00' });

    const issued = await challenge(member, address);
    expect(issued.status, issued.text).toBe(201);
    // EIP-4361: our domain and URI (PUBLIC_URL, not the Host asked), the chain, a nonce, its expiry.
    const fields = parseSiweMessage(issued.body.message);
    expect(fields).toMatchObject({
      domain: 'members.example.test',
      uri: 'https://members.example.test',
      address: getAddress(address),
      chainId: 56,
      version: '1',
      nonce: expect.stringMatching(/^[a-zA-Z0-9]{8,}$/),
    });
    expect(fields.expirationTime?.toISOString()).toBe(issued.body.expires_at);
    expect(Date.parse(issued.body.expires_at) - (fields.issuedAt?.getTime() ?? 0)).toBe(10 * 60_000);
    expect(fields.statement).toContain(member.auth.username);
    expect(fields.statement).toContain('moves no money');
    const signature = await chain.signMessage(issued.body.message, address);
    const proven = await member.client.post('/web3/wallets', { address, signature });
    expect(proven.status, proven.text).toBe(201);
    expect(proven.body).toEqual({
      message: WEB3_MESSAGES.proofOk,
      wallet: { address: address.toLowerCase(), proven_at: expect.any(String) },
    });
    expect((await member.client.get('/web3/wallets')).body.wallets).toEqual([proven.body.wallet]);

    // The same signature again: the message was used.
    const replay = await member.client.post('/web3/wallets', { address, signature });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe(WEB3_MESSAGES.proofExpired);
    // A new proof of one's own wallet: already yours.
    expect((await prove(member, address)).res.body.message).toBe(WEB3_MESSAGES.proofAlready);

    // After the proof: credited by itself after 12 confirmations, not before.
    const hash = await chain.transfer(token, depositAddress, parseUnits('7.5', 18), address);
    const sent = await member.client.post('/web3/deposits', { chain_id: 56, tx_hash: hash });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.deposit).toMatchObject({ status: 'confirming', amount: '7.50' });
    expect(await businessOf(member)).toBe('0.00');
    await chain.mine(11);
    const done = await member.client.get(`/web3/deposits/${sent.body.deposit.id}`);
    expect(done.body.deposit).toMatchObject({ status: 'credited', confirmations: 12 });
    expect(await businessOf(member)).toBe('7.50');
    // The one before the proof still waits for an admin: a proof does not reach back.
    const earlier = await member.client.get(`/web3/deposits/${waiting.body.deposit.id}`);
    expect(earlier.body.deposit.status).toBe('awaiting_admin');

    // Another member can neither prove the wallet nor have its transfers credited by themselves.
    const other = await signedInMember(server.baseUrl);
    const taken = await prove(other, address);
    expect(taken.res.status).toBe(409);
    expect(taken.res.body.message).toBe(WEB3_MESSAGES.proofTaken);
    expect((await other.client.get('/web3/wallets')).body.wallets).toEqual([]);
    const theirs = await chain.transfer(token, depositAddress, parseUnits('2', 18), address);
    await chain.mine(12);
    const pasted = await other.client.post('/web3/deposits', { chain_id: 56, tx_hash: theirs });
    expect(pasted.body.deposit).toMatchObject({ status: 'awaiting_admin' });
    expect(await businessOf(other)).toBe('0.00');
    const ledger = await admin.get('/ledger/reconciliation');
    expect(ledger.body).toMatchObject({ balanced: true, mismatches: [] });
  });

  it('refuses a signature by another key, a bad address or signature, and proves nothing', async () => {
    const member = await signedInMember(server.baseUrl);
    const address = chain.accounts.other;
    // Signed by the deployer, claimed for `other`.
    const forged = await prove(member, address, chain.accounts.deployer);
    expect(forged.res.status).toBe(400);
    expect(forged.res.body.message).toBe(WEB3_MESSAGES.proofInvalid);
    // No message asked for this address: nothing to match.
    const unasked = await member.client.post('/web3/wallets', {
      address: randomAddress(),
      signature: forged.signature,
    });
    expect(unasked.status).toBe(400);
    expect(unasked.body.message).toBe(WEB3_MESSAGES.proofExpired);
    for (const body of [
      { address: 'not-an-address', signature: forged.signature },
      { address, signature: '0x1234' },
      { address },
      {},
    ]) {
      const res = await member.client.post('/web3/wallets', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.length, res.text).toBeGreaterThan(0);
    }
    expect((await challenge(member, '0x12')).status).toBe(400);
    expect((await member.client.get('/web3/wallets')).body.wallets).toEqual([]);
  });

  it('lets an expired message prove nothing', async () => {
    const member = await signedInMember(server.baseUrl);
    const address = chain.accounts.other;
    const issued = await challenge(member, address);
    await server.db
      .updateTable('web3_wallet_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', member.auth.id)
      .execute();
    const signature = await chain.signMessage(issued.body.message, address);
    const res = await member.client.post('/web3/wallets', { address, signature });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(WEB3_MESSAGES.proofExpired);
  });

  it('needs a signed-in member and CSRF, and keeps admins out', async () => {
    const anonymous = await fetch(`${server.baseUrl}/api/v1/web3/wallets`);
    expect(anonymous.status).toBe(401);
    const member = await signedInMember(server.baseUrl);
    const noCsrf = await fetch(`${server.baseUrl}/api/v1/web3/wallets/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: member.client.cookieHeader() },
      body: JSON.stringify({ address: chain.accounts.other }),
    });
    expect(noCsrf.status).toBe(403);
    expect((await admin.post('/web3/wallets/challenge', { address: chain.accounts.other })).status).toBe(403);
  });

  it('lets the page reach the configured relay (and no WalletConnect host of its own) in its CSP', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/health`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src')) ?? '';
    expect(connect).toContain('ws://127.0.0.1:9');
    expect(connect).not.toContain('wss://relay.walletconnect');
    expect(csp).toContain('frame-src');
  });

  it('gives the screen the token decimals read from the contract and the relay to use', async () => {
    const member = await signedInMember(server.baseUrl);
    const config = await member.client.get('/web3/config');
    expect(config.body).toMatchObject({
      token_decimals: 18,
      walletconnect_project_id: 'test-project-id',
      walletconnect_relay_url: 'ws://127.0.0.1:9/relay',
    });
  });
});
