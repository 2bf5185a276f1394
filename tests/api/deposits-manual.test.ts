import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSIT_MESSAGES } from '../../src/shared/deposits.ts';
import { WALLET_MESSAGES } from '../../src/shared/wallets.ts';
import { fetchBytes, solidImage, uploadFile } from '../fixtures/images.ts';
import { ApiClient, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Manual deposits (issue 16, spec 7 "Deposits"): a member sends amount + transaction hash (+ optional
// screenshot); an admin approves (the member's Active Wallet is credited the deposit's amount, exactly
// once) or rejects with a reason; a pending one can be cancelled. Runs on SQLite and on PostgreSQL.

let server: TestServer;
let admin: ApiClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = await signedInAdminClient(server.baseUrl);
  adminId = (await admin.get('/auth/session')).body.admin.id;
});
afterAll(async () => server?.stop());

type Member = Awaited<ReturnType<typeof signedInMember>>;

const newHash = () => `0x${randomBytes(32).toString('hex')}`;

const add = (member: Member, body: Record<string, unknown>, headers?: Record<string, string>) =>
  member.client.post('/deposite/add', body, headers);

async function pendingDeposit(member: Member, amount = '125.50') {
  const res = await add(member, { amount, tx_hash: newHash() });
  expect(res.status, res.text).toBe(201);
  return res.body.deposit as { id: string; amount: string; user_id: string; tx_hash: string };
}

const decide = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  admin.put(`/deposite/${id}`, body, headers);

const approve = (d: { id: string; amount: string; user_id: string }, headers?: Record<string, string>) =>
  decide(d.id, { status: 'approved', amount: d.amount, user_id: d.user_id }, headers);

const reject = (d: { id: string; amount: string; user_id: string }, reason = 'Not received on chain') =>
  decide(d.id, { status: 'rejected', amount: d.amount, user_id: d.user_id, reason });

const businessOf = async (member: Member) => {
  const res = await member.client.get('/wallet/balance');
  expect(res.status).toBe(200);
  return res.body.business as string;
};

const creditsOf = (depositId: string) =>
  server.db
    .selectFrom('ledger_transfers')
    .selectAll()
    .where('reference', '=', `manual-deposit:${depositId}`)
    .execute();

const expectBalanced = async () => {
  const res = await admin.get('/ledger/reconciliation');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });
};

describe('a member sends a manual deposit', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(server.baseUrl);
  });

  it('is pending, with the hash in lower case, and listed for the member and the admin', async () => {
    const hash = newHash();
    const res = await add(member, {
      amount: '250.5',
      tx_hash: `  ${hash.toUpperCase().replace('0X', '0x')} `,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      message: DEPOSIT_MESSAGES.added,
      deposit: {
        id: expect.any(String),
        user_id: member.auth.id,
        amount: '250.50',
        tx_hash: hash,
        image_url: null,
        status: 'pending',
        reason: null,
        created_at: expect.any(String),
        decided_at: null,
        fullname: member.member.fullname,
        username: member.member.username,
        email: member.member.email,
      },
    });
    const { id } = res.body.deposit;
    const mine = await member.client.get('/deposite/list');
    expect(mine.status).toBe(200);
    expect(mine.body.deposits.map((d: { id: string }) => d.id)).toContain(id);
    const one = await member.client.get(`/deposite/by/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.deposit).toEqual(res.body.deposit);
    const all = await admin.get('/deposite/list?status=pending');
    expect(all.status).toBe(200);
    expect(all.body.deposits.map((d: { id: string }) => d.id)).toContain(id);
    expect(all.body.deposits.every((d: { status: string }) => d.status === 'pending')).toBe(true);
    expect((await admin.get(`/deposite/by/${id}`)).body.deposit.id).toBe(id);
    // Nothing is credited before an admin decides.
    expect(await businessOf(member)).toBe('0.00');
  });

  it('attaches a screenshot that the member and admins can open, and nobody else', async () => {
    const upload = await uploadFile(member.client, '/deposite/images', {
      bytes: await solidImage('png', 120, 80),
      filename: 'receipt.png',
      contentType: 'image/png',
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const res = await add(member, { amount: '10', tx_hash: newHash(), image: upload.body.image.name });
    expect(res.status, res.text).toBe(201);
    expect(res.body.deposit.image_url).toBe(upload.body.image.url);
    expect((await fetchBytes(member.client, res.body.deposit.image_url)).status).toBe(200);
    const byAdmin = await fetchBytes(admin, res.body.deposit.image_url);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.headers.get('content-type')).toBe('image/webp');
    const stranger = await signedInMember(server.baseUrl);
    expect((await fetchBytes(stranger.client, res.body.deposit.image_url)).status).toBe(404);
    // Another member cannot attach this member's screenshot to a deposit of theirs.
    const stolen = await add(stranger, { amount: '10', tx_hash: newHash(), image: upload.body.image.name });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors).toEqual([{ field: 'image', message: DEPOSIT_MESSAGES.imageUnknown }]);
    // A file that is not an image is refused by its bytes.
    const notImage = await uploadFile(member.client, '/deposite/images', {
      bytes: Buffer.from('not an image at all'),
      filename: 'receipt.png',
      contentType: 'image/png',
    });
    expect(notImage.status).toBe(400);
  });

  it.each([
    [{ tx_hash: newHash() }, 'amount'],
    [{ amount: '0', tx_hash: newHash() }, 'amount'],
    [{ amount: '-5', tx_hash: newHash() }, 'amount'],
    [{ amount: '1.234', tx_hash: newHash() }, 'amount'],
    [{ amount: 'ten', tx_hash: newHash() }, 'amount'],
    [{ amount: '1000000.01', tx_hash: newHash() }, 'amount'],
    [{ amount: '10' }, 'tx_hash'],
    [{ amount: '10', tx_hash: '' }, 'tx_hash'],
    [{ amount: '10', tx_hash: '0x1234' }, 'tx_hash'],
    [{ amount: '10', tx_hash: `0x${'g'.repeat(64)}` }, 'tx_hash'],
    [{ amount: '10', tx_hash: 'a'.repeat(66) }, 'tx_hash'],
    [{ amount: '10', tx_hash: newHash(), image: 'nope.webp' }, 'image'],
  ])('refuses %j with a 400 on %s', async (body, field) => {
    const before = await server.db.selectFrom('manual_deposits').select('id').execute();
    const res = await add(member, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await server.db.selectFrom('manual_deposits').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses the same hash twice (409), whatever its case, and only one of two at once', async () => {
    const hash = newHash();
    expect((await add(member, { amount: '20', tx_hash: hash })).status).toBe(201);
    const again = await add(member, { amount: '20', tx_hash: hash.toUpperCase().replace('0X', '0x') });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(DEPOSIT_MESSAGES.duplicateHash);
    const other = await signedInMember(server.baseUrl);
    expect((await add(other, { amount: '5', tx_hash: hash })).status).toBe(409);

    for (let round = 0; round < 3; round += 1) {
      const racing = newHash();
      const answers = await Promise.all([
        add(member, { amount: '30', tx_hash: racing }),
        add(other, { amount: '31', tx_hash: racing }),
        add(member, { amount: '32', tx_hash: racing }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
      const rows = await server.db
        .selectFrom('manual_deposits')
        .selectAll()
        .where('tx_hash', '=', racing)
        .execute();
      expect(rows).toHaveLength(1);
    }
  });

  it('frees a hash once its deposit is rejected or cancelled, so the payment can be sent again', async () => {
    const first = await pendingDeposit(member, '40.00');
    expect((await reject(first, 'The payment was 45.00, send it again with that amount')).status).toBe(200);
    const again = await add(member, { amount: '45.00', tx_hash: first.tx_hash });
    expect(again.status, again.text).toBe(201);
    expect((await member.client.request('DELETE', `/deposite/${again.body.deposit.id}`)).status).toBe(200);
    const third = await add(member, { amount: '45.00', tx_hash: first.tx_hash });
    expect(third.status, third.text).toBe(201);
    expect((await approve(third.body.deposit)).status).toBe(200);
    // Approved: the hash is taken for good.
    expect((await add(member, { amount: '45.00', tx_hash: first.tx_hash })).status).toBe(409);
  });

  it('replays a repeat under the same Idempotency-Key, and refuses the key with another body', async () => {
    const key = randomUUID();
    const body = { amount: '77.70', tx_hash: newHash() };
    const first = await add(member, body, { 'Idempotency-Key': key });
    expect(first.status, first.text).toBe(201);
    const repeat = await add(member, body, { 'Idempotency-Key': key });
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    const rows = await server.db
      .selectFrom('manual_deposits')
      .selectAll()
      .where('tx_hash', '=', body.tx_hash)
      .execute();
    expect(rows).toHaveLength(1);
    const otherBody = await add(member, { ...body, amount: '77.71' }, { 'Idempotency-Key': key });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.message).toBe(WALLET_MESSAGES.idempotencyReused);
  });
});

describe('who may do what', () => {
  let owner: Member;
  let other: Member;
  let deposit: { id: string; amount: string; user_id: string };
  beforeAll(async () => {
    owner = await signedInMember(server.baseUrl);
    other = await signedInMember(server.baseUrl);
    deposit = await pendingDeposit(owner);
  });

  it('hides a member’s deposit from another member (404) and from their list', async () => {
    expect((await other.client.get(`/deposite/by/${deposit.id}`)).status).toBe(404);
    expect((await other.client.request('DELETE', `/deposite/${deposit.id}`)).status).toBe(404);
    expect((await other.client.get(`/deposite/by/${randomUUID()}`)).status).toBe(404);
    const list = await other.client.get('/deposite/list');
    expect(list.status).toBe(200);
    expect(list.body.deposits.map((d: { id: string }) => d.id)).not.toContain(deposit.id);
    const own = await owner.client.get('/deposite/list');
    expect(own.body.deposits.every((d: { user_id: string }) => d.user_id === owner.auth.id)).toBe(true);
    expect((await owner.client.get(`/deposite/by/${deposit.id}`)).body.deposit.status).toBe('pending');
  });

  it('keeps decisions to admins (403) and adds to members (403)', async () => {
    const byMember = await owner.client.put(`/deposite/${deposit.id}`, {
      status: 'approved',
      amount: deposit.amount,
      user_id: owner.auth.id,
    });
    expect(byMember.status).toBe(403);
    expect((await admin.post('/deposite/add', { amount: '10', tx_hash: newHash() })).status).toBe(403);
    const adminUpload = await uploadFile(admin, '/deposite/images', {
      bytes: await solidImage('png'),
      filename: 'x.png',
      contentType: 'image/png',
    });
    expect(adminUpload.status).toBe(403);
    expect(await businessOf(owner)).toBe('0.00');
  });

  it('answers 401 without a session and 403 without the CSRF header', async () => {
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.get('/deposite/list')).status).toBe(401);
    expect((await anonymous.post('/deposite/add', { amount: '10', tx_hash: newHash() })).status).toBe(401);
    const noCsrf = await owner.client.request('POST', '/deposite/add', {
      body: { amount: '10', tx_hash: newHash() },
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
  });

  it('validates the list filter and the decision body', async () => {
    expect((await admin.get('/deposite/list?status=paid')).status).toBe(400);
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'completed', amount: deposit.amount, user_id: deposit.user_id }, 'status'],
      [{ status: 'approved', user_id: deposit.user_id }, 'amount'],
      [{ status: 'approved', amount: deposit.amount }, 'user_id'],
      [{ status: 'rejected', amount: deposit.amount, user_id: deposit.user_id }, 'reason'],
      [{ status: 'rejected', amount: deposit.amount, user_id: deposit.user_id, reason: ' x ' }, 'reason'],
    ];
    for (const [body, field] of cases) {
      const res = await decide(deposit.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await admin.get(`/deposite/by/${deposit.id}`)).body.deposit.status).toBe('pending');
  });
});

describe('an admin decides', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(server.baseUrl);
  });

  it('approves once: the Active Wallet gets the amount, the member is told, the audit log has it', async () => {
    const deposit = await pendingDeposit(member, '125.50');
    const res = await approve(deposit);
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(DEPOSIT_MESSAGES.approved);
    expect(res.body.deposit).toMatchObject({
      id: deposit.id,
      status: 'approved',
      decided_at: expect.any(String),
    });
    expect(await businessOf(member)).toBe('125.50');

    const again = await approve(deposit);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(DEPOSIT_MESSAGES.notPending);
    expect((await reject(deposit)).status).toBe(409);
    expect(await businessOf(member)).toBe('125.50');

    const credits = await creditsOf(deposit.id);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({
      kind: 'deposit',
      debit_account_id: 'platform:deposits',
      credit_account_id: `${member.auth.id}:business`,
      phase: 'single',
      created_by: adminId,
    });
    expect(Number(credits[0]?.amount_cents)).toBe(12_550);

    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', deposit.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: adminId, action: 'deposit.approve', target_type: 'deposit' });
    expect(JSON.parse(audit[0]?.after_json ?? '{}')).toMatchObject({ status: 'approved', amount: '125.50' });

    const notes = await member.client.get(`/notifications/user/${member.auth.id}`);
    expect(notes.status).toBe(200);
    expect(JSON.stringify(notes.body)).toContain(DEPOSIT_MESSAGES.approvedText('125.50'));

    // The member's transactions show the deposit.
    const tx = await member.client.get(`/tr/user/${member.auth.id}?transaction_type=deposit`);
    expect(tx.status).toBe(200);
    expect(tx.body.transactions.map((t: { amount: string }) => t.amount)).toContain('125.50');
    await expectBalanced();
  });

  it('rejects with a reason the member reads; nothing is credited', async () => {
    const deposit = await pendingDeposit(member, '60.00');
    const before = await businessOf(member);
    const res = await reject(deposit, 'We received 55.00: please send a deposit of that amount');
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(DEPOSIT_MESSAGES.rejected);
    const seen = await member.client.get(`/deposite/by/${deposit.id}`);
    expect(seen.body.deposit).toMatchObject({
      status: 'rejected',
      reason: 'We received 55.00: please send a deposit of that amount',
    });
    expect(await businessOf(member)).toBe(before);
    expect(await creditsOf(deposit.id)).toHaveLength(0);
    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', deposit.id)
      .execute();
    expect(audit.map((a) => [a.action, a.reason])).toEqual([
      ['deposit.reject', 'We received 55.00: please send a deposit of that amount'],
    ]);
    const notes = await member.client.get(`/notifications/user/${member.auth.id}`);
    expect(JSON.stringify(notes.body)).toContain('please send a deposit of that amount');
    expect((await approve(deposit)).status).toBe(409);
  });

  it('refuses a decision whose amount or member is not the deposit’s (409), changing nothing', async () => {
    const deposit = await pendingDeposit(member, '80.00');
    const other = await signedInMember(server.baseUrl);
    const wrongAmount = await decide(deposit.id, {
      status: 'approved',
      amount: '80.01',
      user_id: member.auth.id,
    });
    expect(wrongAmount.status).toBe(409);
    expect(wrongAmount.body.message).toBe(DEPOSIT_MESSAGES.mismatch);
    const wrongMember = await decide(deposit.id, {
      status: 'approved',
      amount: '80.00',
      user_id: other.auth.id,
    });
    expect(wrongMember.status).toBe(409);
    expect((await admin.get(`/deposite/by/${deposit.id}`)).body.deposit.status).toBe('pending');
    expect(await creditsOf(deposit.id)).toHaveLength(0);
    expect(await businessOf(other)).toBe('0.00');
    expect(
      (await decide(randomUUID(), { status: 'approved', amount: '1', user_id: member.auth.id })).status,
    ).toBe(404);
  });

  it('credits exactly once when approvals race', async () => {
    const racer = await signedInMember(server.baseUrl);
    const deposit = await pendingDeposit(racer, '33.33');
    const answers = await Promise.all(Array.from({ length: 6 }, () => approve(deposit)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await businessOf(racer)).toBe('33.33');
    expect(await creditsOf(deposit.id)).toHaveLength(1);
    await expectBalanced();
  });

  it('lets exactly one of an approval, a rejection and a cancellation win when they race', async () => {
    const racer = await signedInMember(server.baseUrl);
    let expectedCents = 0;
    for (let round = 0; round < 4; round += 1) {
      const deposit = await pendingDeposit(racer, '10.00');
      const [approved, rejected, cancelled] = await Promise.all([
        approve(deposit),
        reject(deposit),
        racer.client.request('DELETE', `/deposite/${deposit.id}`),
      ]);
      const statuses = [approved.status, rejected.status, cancelled.status];
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(2);
      const final = (await admin.get(`/deposite/by/${deposit.id}`)).body.deposit.status;
      const winner =
        approved.status === 200 ? 'approved' : rejected.status === 200 ? 'rejected' : 'cancelled';
      expect(final).toBe(winner);
      if (winner === 'approved') expectedCents += 1000;
      expect(await creditsOf(deposit.id)).toHaveLength(winner === 'approved' ? 1 : 0);
    }
    expect(await businessOf(racer)).toBe(`${expectedCents / 100}.00`);
    await expectBalanced();
  });

  it('replays a decision under the same Idempotency-Key and credits once', async () => {
    const deposit = await pendingDeposit(member, '15.00');
    const before = await businessOf(member);
    const key = randomUUID();
    const first = await approve(deposit, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    const repeat = await approve(deposit, { 'Idempotency-Key': key });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    expect(await creditsOf(deposit.id)).toHaveLength(1);
    expect(Number(await businessOf(member)) * 100).toBe(Number(before) * 100 + 1500);
    const reused = await reject(deposit);
    expect(reused.status).toBe(409);
  });
});

describe('cancelling (DELETE /deposite/{id})', () => {
  let member: Member;
  beforeAll(async () => {
    member = await signedInMember(server.baseUrl);
  });

  it('the member cancels their own pending deposit; the record stays, marked cancelled', async () => {
    const deposit = await pendingDeposit(member, '12.00');
    const res = await member.client.request('DELETE', `/deposite/${deposit.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ message: DEPOSIT_MESSAGES.cancelled, deposit: { status: 'cancelled' } });
    expect((await member.client.get(`/deposite/by/${deposit.id}`)).body.deposit.status).toBe('cancelled');
    expect((await member.client.request('DELETE', `/deposite/${deposit.id}`)).status).toBe(409);
    expect((await approve(deposit)).status).toBe(409);
    expect(await businessOf(member)).toBe('0.00');
    // A member's own cancellation is not an admin action: no audit entry.
    expect(
      await server.db.selectFrom('audit_log').selectAll().where('target_id', '=', deposit.id).execute(),
    ).toHaveLength(0);
  });

  it('an admin cancels a pending deposit (audited), but never an approved one', async () => {
    const pending = await pendingDeposit(member, '13.00');
    const res = await admin.request('DELETE', `/deposite/${pending.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.deposit.status).toBe('cancelled');
    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', pending.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['deposit.cancel']);
    const notes = await member.client.get(`/notifications/user/${member.auth.id}`);
    expect(JSON.stringify(notes.body)).toContain(DEPOSIT_MESSAGES.cancelledByAdminText('13.00'));

    const approvedOne = await pendingDeposit(member, '14.00');
    expect((await approve(approvedOne)).status).toBe(200);
    expect((await admin.request('DELETE', `/deposite/${approvedOne.id}`)).status).toBe(409);
    expect((await member.client.request('DELETE', `/deposite/${approvedOne.id}`)).status).toBe(409);
    const row = await server.db
      .selectFrom('manual_deposits')
      .selectAll()
      .where('id', '=', approvedOne.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('approved');
    expect(await businessOf(member)).toBe('14.00');
    await expectBalanced();
  });
});

describe('the OpenAPI document', () => {
  it('lists every deposit call', async () => {
    const res = await new ApiClient(server.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const path of [
      '/api/v1/deposite/add',
      '/api/v1/deposite/list',
      '/api/v1/deposite/by/{id}',
      '/api/v1/deposite/{id}',
      '/api/v1/deposite/images',
    ])
      expect(paths).toContain(path);
  });
});
