import { randomBytes } from 'node:crypto';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB3_MESSAGES } from '../../src/shared/web3.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { type EvmChain, startEvmChain } from '../helpers/evm-chain.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// On-chain deposits (issue 18, RULES.md "Deposits: Web3 deposit"): a real local chain (chain id 56) with
// a real ERC-20 of 18 decimals; the server reads receipts from it over JSON-RPC and credits `business`
// once per (chain, hash) after 12 confirmations. A second server with no RPC shows the admin path.
// Runs on SQLite and on PostgreSQL.

type Member = Awaited<ReturnType<typeof signedInMember>>;

const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as Address;
const randomHash = () => `0x${randomBytes(32).toString('hex')}`;
const usdt = (amount: string) => parseUnits(amount, 18);

let chain: EvmChain;
let token: Address;
let otherToken: Address;
const depositAddress = randomAddress();
let server: TestServer;
let admin: ApiClient;
let noRpc: TestServer;
let noRpcAdmin: ApiClient;

beforeAll(async () => {
  chain = await startEvmChain();
  token = await chain.deployToken('USDT', 18);
  otherToken = await chain.deployToken('FAKE', 18);
  [server, noRpc] = await Promise.all([
    startServer({
      BSC_RPC_URL: chain.rpcUrl,
      USDT_CONTRACT: token,
      DEPOSIT_ADDRESS: depositAddress.toUpperCase().replace('0X', '0x'),
      WEB3_POLL_MS: '200',
    }),
    startServer(),
  ]);
  [admin, noRpcAdmin] = await Promise.all([
    signedInAdminClient(server.baseUrl),
    signedInAdminClient(noRpc.baseUrl),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), noRpc?.stop()]);
  await chain?.stop();
});

const submit = (member: Member, txHash: string, chainId: unknown = 56, headers?: Record<string, string>) =>
  member.client.post('/web3/deposits', { chain_id: chainId, tx_hash: txHash }, headers);

/** A member whose saved BEP20 address is the chain's deployer, the sender of the test's transfers. */
const payer = async () => {
  const m = await signedInMember(server.baseUrl);
  const saved = await admin.put(`/users/${m.auth.id}`, { bep20: chain.accounts.deployer });
  expect(saved.status, saved.text).toBe(200);
  return m;
};

const businessOf = async (member: Member) => {
  const res = await member.client.get('/wallet/balance');
  expect(res.status).toBe(200);
  return res.body.business as string;
};

const creditsOf = (on: TestServer, txHash: string) =>
  on.db
    .selectFrom('ledger_transfers')
    .select(['amount_cents', 'credit_account_id'])
    .where('reference', '=', `web3-deposit:56:${txHash}`)
    .execute();

const expectBalanced = async (client: ApiClient) => {
  const res = await client.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

describe('with the chain check (BSC_RPC_URL set)', () => {
  let member: Member;
  let other: Member;
  beforeAll(async () => {
    [member, other] = await Promise.all([payer(), payer()]);
  });

  it('credits a real transfer once, after 12 confirmations and not before, with the amount from the log', async () => {
    const hash = await chain.transfer(token, depositAddress, usdt('10.005'));
    const res = await submit(member, hash.toUpperCase().replace('0X', '0x'));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: WEB3_MESSAGES.submitted,
      deposit: expect.objectContaining({
        id: expect.any(String),
        chain_id: 56,
        tx_hash: hash,
        // 10.005 USDT with 18 decimals, rounded down to cents.
        amount: '10.00',
        status: 'confirming',
        confirmations: 1,
        created_at: expect.any(String),
        from_address: chain.accounts.deployer.toLowerCase(),
      }),
    });
    const { id } = res.body.deposit;
    await chain.mine(10);
    const eleven = await member.client.get(`/web3/deposits/${id}`);
    expect(eleven.status).toBe(200);
    expect(eleven.body.deposit).toMatchObject({ status: 'confirming', confirmations: 11 });
    expect(await businessOf(member)).toBe('0.00');
    expect(await creditsOf(server, hash)).toHaveLength(0);

    await chain.mine(1);
    const twelve = await member.client.get(`/web3/deposits/${id}`);
    expect(twelve.body.deposit).toMatchObject({ status: 'credited', confirmations: 12, amount: '10.00' });
    expect(await businessOf(member)).toBe('10.00');

    // Read again, submitted again: still one credit.
    await chain.mine(3);
    expect((await member.client.get(`/web3/deposits/${id}`)).body.deposit.status).toBe('credited');
    const again = await submit(member, hash);
    expect(again.status, again.text).toBe(200);
    expect(again.body.message).toBe(WEB3_MESSAGES.alreadySubmitted);
    expect(again.body.deposit).toMatchObject({ id, status: 'credited' });
    expect(await creditsOf(server, hash)).toEqual([
      { amount_cents: expect.anything(), credit_account_id: `${member.auth.id}:business` },
    ]);
    expect(Number((await creditsOf(server, hash))[0]?.amount_cents)).toBe(1000);
    expect(await businessOf(member)).toBe('10.00');

    // Another member sending the same hash is refused; they cannot read the deposit either.
    const theirs = await submit(other, hash);
    expect(theirs.status).toBe(409);
    expect(theirs.body.message).toBe(WEB3_MESSAGES.hashTaken);
    expect((await other.client.get(`/web3/deposits/${id}`)).status).toBe(404);
    expect((await other.client.get('/web3/deposits')).body.deposits).toEqual([]);
    expect(await businessOf(other)).toBe('0.00');

    const mine = await member.client.get('/web3/deposits');
    expect(mine.body.deposits.map((d: { id: string }) => d.id)).toEqual([id]);
    const all = await admin.get('/web3/deposits?status=credited');
    expect(all.body.deposits.map((d: { id: string }) => d.id)).toContain(id);
    await expectBalanced(admin);
  });

  it('is credited by the background check with nobody reading it', async () => {
    const someone = await payer();
    const hash = await chain.transfer(token, depositAddress, usdt('3.5'));
    const res = await submit(someone, hash);
    expect(res.status, res.text).toBe(201);
    expect(res.body.deposit.status).toBe('confirming');
    await chain.mine(11);
    // The list does not read the chain; only the job (WEB3_POLL_MS=200) can have moved it.
    await expect
      .poll(async () => (await someone.client.get('/web3/deposits')).body.deposits[0]?.status, {
        timeout: 10_000,
      })
      .toBe('credited');
    expect(await businessOf(someone)).toBe('3.50');
  });

  it('credits one of many concurrent submits of the same hash', async () => {
    const someone = await payer();
    const hash = await chain.transfer(token, depositAddress, usdt('7.25'));
    await chain.mine(12);
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit(someone, hash)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.deposit.id)).size).toBe(1);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    expect(await businessOf(someone)).toBe('7.25');
  });

  it('lets one of two members submitting one hash at once have it, the other gets a 409', async () => {
    const [a, b] = await Promise.all([payer(), payer()]);
    const hash = await chain.transfer(token, depositAddress, usdt('2'));
    await chain.mine(12);
    const answers = await Promise.all([submit(a, hash), submit(b, hash)]);
    expect(answers.map((x) => x.status).sort()).toEqual([201, 409]);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    const balances = [await businessOf(a), await businessOf(b)].sort();
    expect(balances).toEqual(['0.00', '2.00']);
  });

  it('waits for an admin when the transfer did not come from the member’s saved address', async () => {
    // Anyone can read a transfer's hash on chain and paste it: without the sender's address saved as
    // theirs, a member's confirmed deposit is not credited by itself.
    const stranger = await signedInMember(server.baseUrl);
    const hash = await chain.transfer(token, depositAddress, usdt('5'));
    await chain.mine(12);
    const res = await submit(stranger, hash);
    expect(res.status, res.text).toBe(201);
    expect(res.body.deposit).toMatchObject({ status: 'awaiting_admin', amount: '5.00' });
    const one = await stranger.client.get(`/web3/deposits/${res.body.deposit.id}`);
    expect(one.body.deposit).toMatchObject({ status: 'awaiting_admin', reason: WEB3_MESSAGES.fromNotSaved });
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(stranger)).toBe('0.00');
    // The member with that address saved is too late: the hash is taken, and an admin decides.
    const owner = await payer();
    expect((await submit(owner, hash)).status).toBe(409);
    const wrong = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '50' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toBe(WEB3_MESSAGES.amountMismatch('5.00'));
    expect(await creditsOf(server, hash)).toHaveLength(0);
    const approved = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '5' });
    expect(approved.status, approved.text).toBe(200);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    expect(await businessOf(stranger)).toBe('5.00');
  });

  it('waits for an admin when the member saved the sender’s address too recently to use it', async () => {
    const late = await payer();
    // As if the member had saved it themselves an hour ago: usable for withdrawals in 23 hours.
    await server.db
      .updateTable('payout_address_changes')
      .set({ changed_by_role: 'member', usable_from: new Date(Date.now() + 23 * 3600_000).toISOString() })
      .where('user_id', '=', late.auth.id)
      .where('network', '=', 'bep20')
      .execute();
    const hash = await chain.transfer(token, depositAddress, usdt('6'));
    await chain.mine(12);
    const res = await submit(late, hash);
    expect(res.body.deposit).toMatchObject({ status: 'awaiting_admin', amount: '6.00' });
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(late)).toBe('0.00');
  });

  it('rejects a transfer to another address, of another token, or a reverted one, and credits nothing', async () => {
    const someone = await signedInMember(server.baseUrl);
    const elsewhere = await chain.transfer(token, randomAddress(), usdt('5'));
    const fake = await chain.transfer(otherToken, depositAddress, usdt('5'));
    // The second account holds no tokens: its transfer reverts.
    const reverted = await chain.transfer(token, depositAddress, usdt('5'), chain.accounts.other);
    await chain.mine(12);
    const expected = [
      [elsewhere, WEB3_MESSAGES.noTransfer],
      [fake, WEB3_MESSAGES.noTransfer],
      [reverted, WEB3_MESSAGES.reverted],
    ] as const;
    for (const [hash, reason] of expected) {
      const res = await submit(someone, hash);
      expect(res.status, res.text).toBe(201);
      expect(res.body.deposit).toMatchObject({ status: 'rejected', reason, amount: null });
      expect(await creditsOf(server, hash)).toHaveLength(0);
      // A rejected hash cannot be re-sent by another member to try again.
      expect((await submit(other, hash)).status).toBe(409);
    }
    expect(await businessOf(someone)).toBe('0.00');
  });

  it('keeps a hash the chain does not know pending, and credits nothing', async () => {
    const someone = await signedInMember(server.baseUrl);
    const res = await submit(someone, randomHash());
    expect(res.status).toBe(201);
    expect(res.body.deposit).toMatchObject({ status: 'pending', confirmations: 0, amount: null });
    expect((await someone.client.get(`/web3/deposits/${res.body.deposit.id}`)).body.deposit.status).toBe(
      'pending',
    );
  });

  it('refuses a malformed hash and another chain, and changes nothing', async () => {
    const someone = await signedInMember(server.baseUrl);
    for (const bad of ['', '0x123', `0x${'g'.repeat(64)}`, `${'a'.repeat(64)}`]) {
      const res = await submit(someone, bad);
      expect(res.status, bad).toBe(400);
    }
    const invalid = await submit(someone, '0x123');
    expect(invalid.body.errors).toEqual([{ field: 'tx_hash', message: WEB3_MESSAGES.txHashInvalid }]);
    for (const chainId of [1, 137, '56', null]) {
      const res = await submit(someone, randomHash(), chainId);
      expect(res.status, String(chainId)).toBe(400);
    }
    expect((await someone.client.post('/web3/deposits', { tx_hash: randomHash() })).status).toBe(400);
    const eth = await submit(someone, randomHash(), 1);
    expect(eth.body.errors).toEqual([{ field: 'chain_id', message: WEB3_MESSAGES.chainUnsupported }]);
    expect((await someone.client.get('/web3/deposits')).body.deposits).toEqual([]);
  });

  it('needs CSRF, a member, and keeps the admin calls to admins', async () => {
    const hash = randomHash();
    const noCsrf = await member.client.request('POST', '/web3/deposits', {
      body: { chain_id: 56, tx_hash: hash },
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    expect((await admin.post('/web3/deposits', { chain_id: 56, tx_hash: hash })).status).toBe(403);
    const id = (await member.client.get('/web3/deposits')).body.deposits[0].id;
    expect((await member.client.get('/web3/settings')).status).toBe(403);
    expect((await member.client.post(`/web3/deposits/${id}/approve`, { amount: '1' })).status).toBe(403);
    expect((await member.client.post(`/web3/deposits/${id}/reject`, { reason: 'Not mine' })).status).toBe(
      403,
    );
  });

  it('shows the admin the settings in use, and the member what to send where', async () => {
    const res = await admin.get('/web3/settings');
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      chain_id: 56,
      chain_name: 'BNB Smart Chain',
      token_contract: token.toLowerCase(),
      deposit_address: depositAddress.toLowerCase(),
      required_confirmations: 12,
      rpc_configured: true,
      walletconnect_configured: false,
      poll_interval_ms: 200,
    });
    expect(res.text).not.toContain(chain.rpcUrl);
    // Without a WalletConnect project id the pages may reach no WalletConnect host.
    expect(res.headers.get('content-security-policy')).not.toContain('walletconnect');
    const config = await member.client.get('/web3/config');
    expect(config.body).toMatchObject({
      chain_id: 56,
      deposit_address: depositAddress.toLowerCase(),
      token_contract: token.toLowerCase(),
      chain_check: true,
      walletconnect_project_id: null,
    });
  });

  it('sends a confirming deposit back to pending when a reorganisation drops it, crediting nothing', async () => {
    const someone = await signedInMember(server.baseUrl);
    const snapshot = await chain.snapshot();
    const hash = await chain.transfer(token, depositAddress, usdt('4'));
    await chain.mine(5);
    const res = await submit(someone, hash);
    expect(res.body.deposit).toMatchObject({ status: 'confirming', confirmations: 6 });
    await chain.revert(snapshot);
    await chain.mine(15);
    const after = await someone.client.get(`/web3/deposits/${res.body.deposit.id}`);
    expect(after.body.deposit).toMatchObject({ status: 'pending', confirmations: 0 });
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(someone)).toBe('0.00');
    await expectBalanced(admin);
  });
});

describe('without an RPC (every deposit waits for an admin)', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(noRpc.baseUrl);
  });

  it('is awaiting_admin; an admin approves it once with the amount they checked, audited', async () => {
    const hash = randomHash();
    const res = await submit(member, hash);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: WEB3_MESSAGES.submittedAwaitingAdmin,
      deposit: expect.objectContaining({
        status: 'awaiting_admin',
        amount: null,
        confirmations: 0,
        tx_hash: hash,
      }),
    });
    const { id } = res.body.deposit;
    const waiting = await noRpcAdmin.get('/web3/deposits?status=awaiting_admin');
    expect(waiting.body.deposits.map((d: { id: string }) => d.id)).toContain(id);
    expect((await noRpcAdmin.get('/web3/settings')).body.settings.rpc_configured).toBe(false);

    const bad = await noRpcAdmin.post(`/web3/deposits/${id}/approve`, { amount: '-3' });
    expect(bad.status).toBe(400);
    const approved = await noRpcAdmin.post(`/web3/deposits/${id}/approve`, { amount: '25.50' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.deposit).toMatchObject({ status: 'credited', amount: '25.50' });
    expect(await businessOf(member)).toBe('25.50');

    const twice = await noRpcAdmin.post(`/web3/deposits/${id}/approve`, { amount: '25.50' });
    expect(twice.status).toBe(409);
    expect((await noRpcAdmin.post(`/web3/deposits/${id}/reject`, { reason: 'Changed my mind' })).status).toBe(
      409,
    );
    expect(await creditsOf(noRpc, hash)).toHaveLength(1);
    expect(await businessOf(member)).toBe('25.50');

    const audit = await noRpc.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('target_type', '=', 'web3_deposit')
      .execute();
    expect(audit).toEqual([{ action: 'web3_deposit.approve', target_id: id }]);
    await expectBalanced(noRpcAdmin);
  });

  it('an admin rejects one with a reason the member reads; it is never credited after', async () => {
    const res = await submit(member, randomHash());
    const { id } = res.body.deposit;
    const short = await noRpcAdmin.post(`/web3/deposits/${id}/reject`, { reason: 'x' });
    expect(short.status).toBe(400);
    const rejected = await noRpcAdmin.post(`/web3/deposits/${id}/reject`, { reason: 'Not on chain' });
    expect(rejected.status, rejected.text).toBe(200);
    const seen = await member.client.get(`/web3/deposits/${id}`);
    expect(seen.body.deposit).toMatchObject({ status: 'rejected', reason: 'Not on chain' });
    expect((await noRpcAdmin.post(`/web3/deposits/${id}/approve`, { amount: '5' })).status).toBe(409);
    expect(await businessOf(member)).toBe('25.50');
    expect((await noRpcAdmin.post(`/web3/deposits/${randomHash()}/approve`, { amount: '5' })).status).toBe(
      404,
    );
  });

  it('replays an Idempotency-Key instead of approving twice', async () => {
    const someone = await signedInMember(noRpc.baseUrl);
    const { id } = (await submit(someone, randomHash())).body.deposit;
    const key = { 'Idempotency-Key': `approve-${id}` };
    const first = await noRpcAdmin.post(`/web3/deposits/${id}/approve`, { amount: '1.01' }, key);
    const second = await noRpcAdmin.post(`/web3/deposits/${id}/approve`, { amount: '1.01' }, key);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(await businessOf(someone)).toBe('1.01');
  });
});
