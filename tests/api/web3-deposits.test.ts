import { randomBytes } from 'node:crypto';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_CREDIT_MESSAGES, WEB3_MESSAGES } from '../../src/shared/web3.ts';
import { type ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { type EvmChain, startEvmChain } from '../helpers/evm-chain.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// On-chain deposits (RULES.md "Deposits: Web3 deposit"): a real local chain (chain id 56) with a real
// ERC-20 of 18 decimals; the server reads receipts from it over JSON-RPC and credits `business` once per
// (chain, hash), whatever the path, after 12 confirmations, to the member who proved the sender's wallet.
// A second server with no RPC shows the admin path. Runs on SQLite and on PostgreSQL.

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
      TRUST_PROXY: '127.0.0.1',
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

let members = 0;
/** A member of the chain-check server, registered from an address of its own (many members, no limit). */
const memberOnServer = () => {
  members += 1;
  return signedInMember(server.baseUrl, {}, { 'X-Forwarded-For': `10.41.${members >> 8}.${members & 255}` });
};

/** Proves `address` the member's by signing the server's message with it. */
async function proveWallet(member: Member, address: Address) {
  const issued = await member.client.post('/web3/wallets/challenge', { address });
  expect(issued.status, issued.text).toBe(201);
  const signature = await chain.signMessage(issued.body.message, address);
  const proven = await member.client.post('/web3/wallets', { address, signature });
  expect(proven.status, proven.text).toBe(201);
}

let spareUsed = 0;
/** A wallet of its own (one of the chain's spare accounts), holding USDT to send. */
async function freshWallet(): Promise<Address> {
  const address = chain.accounts.spare[spareUsed++];
  if (!address) throw new Error('the local chain has no spare account left');
  await chain.transfer(token, address, usdt('1000'));
  return address;
}

/** A member who proved a wallet of their own by signing; `send` transfers USDT from it. */
const payer = async () => {
  const m = await memberOnServer();
  const address = await freshWallet();
  await proveWallet(m, address);
  const send = (amount: string, to: Address = depositAddress) =>
    chain.transfer(token, to, usdt(amount), address);
  return Object.assign(m, { address, send });
};

/** A member whose saved BEP20 payout address is `address` (set by an admin: usable at once). */
const savedPayout = async (address: Address) => {
  const m = await memberOnServer();
  const saved = await admin.put(`/users/${m.auth.id}`, { bep20: address });
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
  let member: Awaited<ReturnType<typeof payer>>;
  let other: Member;
  beforeAll(async () => {
    [member, other] = await Promise.all([payer(), payer()]);
  });

  it('credits a real transfer once, after 12 confirmations and not before, with the amount from the log', async () => {
    const hash = await member.send('10.005');
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
        from_address: member.address.toLowerCase(),
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
    const hash = await someone.send('3.5');
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
    const hash = await someone.send('7.25');
    await chain.mine(12);
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit(someone, hash)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.deposit.id)).size).toBe(1);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    expect(await businessOf(someone)).toBe('7.25');
  });

  it('gives one hash submitted by two members at once to the one who proved its sender, once', async () => {
    const [a, b] = await Promise.all([payer(), payer()]);
    const hash = await a.send('2');
    await chain.mine(12);
    const answers = await Promise.all([submit(a, hash), submit(b, hash)]);
    // b first and a taking it over, or a first and b refused: a has it either way.
    expect(answers[0]?.status).toBe(201);
    expect([201, 409]).toContain(answers[1]?.status);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    expect([await businessOf(a), await businessOf(b)]).toEqual(['2.00', '0.00']);
  });

  it('waits for an admin when the transfer did not come from a wallet the member proved', async () => {
    // Anyone can read a transfer's hash on chain and paste it: without the sender's wallet proven as
    // theirs, a member's confirmed deposit is not credited by itself.
    const stranger = await memberOnServer();
    const hash = await chain.transfer(token, depositAddress, usdt('5'));
    await chain.mine(12);
    const res = await submit(stranger, hash);
    expect(res.status, res.text).toBe(201);
    expect(res.body.deposit).toMatchObject({ status: 'awaiting_admin', amount: '5.00' });
    const one = await stranger.client.get(`/web3/deposits/${res.body.deposit.id}`);
    expect(one.body.deposit).toMatchObject({ status: 'awaiting_admin', reason: WEB3_MESSAGES.fromNotProven });
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(stranger)).toBe('0.00');
    // A member who only saved that address as their payout address proves nothing: an admin decides.
    const saver = await savedPayout(chain.accounts.deployer);
    expect((await submit(saver, hash)).status).toBe(409);
    const wrong = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '50' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toBe(WEB3_MESSAGES.amountMismatch('5.00'));
    expect(await creditsOf(server, hash)).toHaveLength(0);
    const approved = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '5' });
    expect(approved.status, approved.text).toBe(200);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    expect(await businessOf(stranger)).toBe('5.00');
  });

  it('never credits by itself a transfer from a saved payout address: where we pay is no proof', async () => {
    // The attack: a member saves another's wallet as their own payout address (an admin's save is
    // usable at once, a member's after 24 hours) and pastes that wallet's transfer first.
    const victimWallet = await freshWallet();
    const thief = await savedPayout(victimWallet);
    const hash = await chain.transfer(token, depositAddress, usdt('6'), victimWallet);
    await chain.mine(12);
    const res = await submit(thief, hash);
    expect(res.body.deposit).toMatchObject({
      status: 'awaiting_admin',
      amount: '6.00',
      reason: WEB3_MESSAGES.fromNotProven,
    });
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(thief)).toBe('0.00');
  });

  it('rejects a transfer to another address, of another token, or a reverted one, and credits nothing', async () => {
    const someone = await memberOnServer();
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
    const someone = await memberOnServer();
    const res = await submit(someone, randomHash());
    expect(res.status).toBe(201);
    expect(res.body.deposit).toMatchObject({ status: 'pending', confirmations: 0, amount: null });
    expect((await someone.client.get(`/web3/deposits/${res.body.deposit.id}`)).body.deposit.status).toBe(
      'pending',
    );
  });

  it('refuses a malformed hash and another chain, and changes nothing', async () => {
    const someone = await memberOnServer();
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
    const someone = await memberOnServer();
    const snapshot = await chain.snapshot();
    const hash = await chain.transfer(token, depositAddress, usdt('4'));
    await chain.mine(5);
    const res = await submit(someone, hash);
    expect(res.body.deposit).toMatchObject({ status: 'confirming', confirmations: 6 });
    await chain.revert(snapshot);
    await chain.mine(15);
    const after = await someone.client.get(`/web3/deposits/${res.body.deposit.id}`);
    expect(after.body.deposit).toMatchObject({ status: 'pending', confirmations: 0 });
    // Staff cannot credit what left the chain: an approval needs the chain to show it, confirmed.
    const approve = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '4' });
    expect(approve.status).toBe(409);
    expect(approve.body.message).toBe(WEB3_MESSAGES.notConfirmedOnChain(12));
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(someone)).toBe('0.00');
    await expectBalanced(admin);
  });

  it('lets staff approve only once the chain shows the transfer with 12 confirmations', async () => {
    const someone = await memberOnServer();
    const hash = await chain.transfer(token, depositAddress, usdt('1.5'));
    await chain.mine(3);
    const res = await submit(someone, hash);
    expect(res.body.deposit).toMatchObject({ status: 'confirming', confirmations: 4 });
    // Not approvable while confirming, nor with a hash the chain does not know.
    expect(
      (await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '1.5' })).status,
    ).toBe(409);
    const unknown = await submit(someone, randomHash());
    const early = await admin.post(`/web3/deposits/${unknown.body.deposit.id}/approve`, { amount: '1' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(WEB3_MESSAGES.notConfirmedOnChain(12));
    expect(await businessOf(someone)).toBe('0.00');
    await chain.mine(8);
    await expect
      .poll(
        async () => (await someone.client.get(`/web3/deposits/${res.body.deposit.id}`)).body.deposit.status,
      )
      .toBe('awaiting_admin');
    const ok = await admin.post(`/web3/deposits/${res.body.deposit.id}/approve`, { amount: '1.5' });
    expect(ok.status, ok.text).toBe(200);
    expect(await businessOf(someone)).toBe('1.50');
  });
});

describe('money reaches only the member who sent it', () => {
  it('lets the prover of the sender take over a deposit another member submitted first', async () => {
    const owner = await payer();
    // The attack: a member saves the owner's wallet as their payout address and pastes its hash first.
    const thief = await savedPayout(owner.address);
    const hash = await owner.send('50');
    await chain.mine(12);
    const first = await submit(thief, hash);
    expect(first.status, first.text).toBe(201);
    expect(first.body.deposit).toMatchObject({ status: 'awaiting_admin', amount: '50.00' });
    // Staff cannot hand it to the thief either: its sender is another member's proven wallet.
    const approve = await admin.post(`/web3/deposits/${first.body.deposit.id}/approve`, { amount: '50' });
    expect(approve.status).toBe(409);
    expect(approve.body.message).toBe(WEB3_MESSAGES.senderProvenByOther);
    expect(await businessOf(thief)).toBe('0.00');

    const mine = await submit(owner, hash);
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.deposit).toMatchObject({
      id: first.body.deposit.id,
      status: 'credited',
      amount: '50.00',
      user_id: owner.auth.id,
    });
    expect(await businessOf(owner)).toBe('50.00');
    expect(await businessOf(thief)).toBe('0.00');
    expect((await thief.client.get('/web3/deposits')).body.deposits).toEqual([]);
    expect((await thief.client.get(`/web3/deposits/${first.body.deposit.id}`)).status).toBe(404);
    // Credited is final: nobody takes it again.
    const again = await submit(thief, hash);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(WEB3_MESSAGES.hashTaken);
    expect(await creditsOf(server, hash)).toHaveLength(1);
    await expectBalanced(admin);
  });

  it('lets a rejection not burn the hash for the prover of its sender', async () => {
    const senderWallet = await freshWallet();
    const stranger = await memberOnServer();
    const hash = await chain.transfer(token, depositAddress, usdt('8'), senderWallet);
    await chain.mine(12);
    const first = await submit(stranger, hash);
    expect(first.body.deposit.status).toBe('awaiting_admin');
    const rejected = await admin.post(`/web3/deposits/${first.body.deposit.id}/reject`, {
      reason: 'Not your wallet',
    });
    expect(rejected.status).toBe(200);
    // The wallet's owner proves it later and submits the hash: checked again, credited to them.
    const owner = await memberOnServer();
    await proveWallet(owner, senderWallet);
    const res = await submit(owner, hash);
    expect(res.status, res.text).toBe(201);
    expect(res.body.deposit).toMatchObject({ status: 'credited', amount: '8.00', user_id: owner.auth.id });
    expect(await businessOf(owner)).toBe('8.00');
    expect(await businessOf(stranger)).toBe('0.00');
  });

  it('checks again a deposit rejected as not seen on chain within a day, whoever sends it again', async () => {
    const sender = await payer();
    const hash = await sender.send('9');
    await chain.mine(12);
    const early = await memberOnServer();
    const res = await submit(early, hash);
    const { id } = res.body.deposit;
    // As if the RPC had not shown it for a day (a lagging node): rejected as not found.
    await server.db
      .updateTable('web3_deposits')
      .set({
        status: 'rejected',
        reason: WEB3_MESSAGES.notFoundOnChain,
        amount_cents: null,
        from_address: null,
        confirmations: 0,
      })
      .where('id', '=', id)
      .execute();
    // Its submitter sending it again has it read again (here: waiting for an admin, not their wallet).
    const again = await submit(early, hash);
    expect(again.status, again.text).toBe(201);
    expect(again.body.deposit).toMatchObject({ id, status: 'awaiting_admin', amount: '9.00' });
    // The prover of the sender takes it over and is credited.
    const mine = await submit(sender, hash);
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.deposit).toMatchObject({ id, status: 'credited', user_id: sender.auth.id });
    expect(await businessOf(sender)).toBe('9.00');
    expect(await businessOf(early)).toBe('0.00');
  });

  it('lets an admin assign an uncredited deposit to a named member, audited with a reason', async () => {
    const stranger = await memberOnServer();
    const rightful = await memberOnServer();
    const hash = await chain.transfer(token, depositAddress, usdt('12'));
    await chain.mine(12);
    const { id } = (await submit(stranger, hash)).body.deposit;
    const path = `/web3/deposits/${id}/assign`;
    expect((await admin.post(path, { user_id: rightful.auth.id })).status).toBe(400);
    expect((await admin.post(path, { user_id: 'nobody', reason: 'Checked the sender' })).status).toBe(400);
    expect((await stranger.client.post(path, { user_id: stranger.auth.id, reason: 'Mine' })).status).toBe(
      403,
    );
    const assigned = await admin.post(path, {
      user_id: rightful.auth.id,
      reason: 'Sender confirmed by support',
    });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body).toMatchObject({
      message: WEB3_MESSAGES.assigned,
      deposit: { id, user_id: rightful.auth.id, status: 'awaiting_admin', amount: '12.00' },
    });
    expect((await stranger.client.get(`/web3/deposits/${id}`)).status).toBe(404);
    const approved = await admin.post(`/web3/deposits/${id}/approve`, { amount: '12' });
    expect(approved.status, approved.text).toBe(200);
    expect(await businessOf(rightful)).toBe('12.00');
    expect(await businessOf(stranger)).toBe('0.00');
    const final = await admin.post(path, { user_id: stranger.auth.id, reason: 'Changed my mind' });
    expect(final.status).toBe(409);
    expect(final.body.message).toBe(WEB3_MESSAGES.assignFinal);
    const audit = await server.db
      .selectFrom('audit_log')
      .select(['action', 'reason'])
      .where('target_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['web3_deposit.assign', 'web3_deposit.approve']);
    expect(audit[0]?.reason).toBe('Sender confirmed by support');
  });
});

describe('one transaction on chain credits once, whatever the path', () => {
  const manualAdd = (m: Member, txHash: string, amount: string) =>
    m.client.post('/deposite/add', { amount, tx_hash: txHash });
  const manualApprove = (d: { id: string; amount: string; user_id: string }) =>
    admin.put(`/deposite/${d.id}`, { status: 'approved', amount: d.amount, user_id: d.user_id });

  it('refuses the on-chain deposit of a hash approved as a manual deposit', async () => {
    const m = await payer();
    const hash = await m.send('50');
    await chain.mine(12);
    const manual = await manualAdd(m, hash, '50');
    expect(manual.status, manual.text).toBe(201);
    expect((await manualApprove(manual.body.deposit)).status).toBe(200);
    expect(await businessOf(m)).toBe('50.00');
    const res = await submit(m, hash);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CHAIN_CREDIT_MESSAGES.manual);
    expect(await businessOf(m)).toBe('50.00');
    await expectBalanced(admin);
  });

  it('rejects a confirming on-chain deposit once its hash is approved as a manual deposit', async () => {
    const m = await payer();
    const hash = await m.send('20');
    const sent = await submit(m, hash);
    expect(sent.body.deposit.status).toBe('confirming');
    const manual = await manualAdd(m, hash, '20');
    expect((await manualApprove(manual.body.deposit)).status).toBe(200);
    await chain.mine(12);
    const after = await m.client.get(`/web3/deposits/${sent.body.deposit.id}`);
    expect(after.body.deposit).toMatchObject({ status: 'rejected', reason: CHAIN_CREDIT_MESSAGES.manual });
    expect(await creditsOf(server, hash)).toHaveLength(0);
    expect(await businessOf(m)).toBe('20.00');
  });

  it('refuses to approve a manual deposit of a hash credited on chain', async () => {
    const m = await payer();
    const hash = await m.send('50');
    // Sent as a manual deposit first, still pending when the on-chain deposit is credited.
    const manual = await manualAdd(m, hash, '50');
    expect(manual.status, manual.text).toBe(201);
    await chain.mine(12);
    expect((await submit(m, hash)).body.deposit.status).toBe('credited');
    expect(await businessOf(m)).toBe('50.00');
    const approve = await manualApprove(manual.body.deposit);
    expect(approve.status).toBe(409);
    expect(approve.body.message).toBe(CHAIN_CREDIT_MESSAGES.onchain);
    expect((await m.client.get(`/deposite/by/${manual.body.deposit.id}`)).body.deposit.status).toBe(
      'pending',
    );
    // Sending it as a manual deposit again is refused at once, saying where it was credited.
    const dup = await manualAdd(m, hash.toUpperCase().replace('0X', '0x'), '50');
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(CHAIN_CREDIT_MESSAGES.onchain);
    expect(await businessOf(m)).toBe('50.00');
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
