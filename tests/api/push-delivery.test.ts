import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushToMembers } from '../../src/server/modules/push/push.service.ts';
import { formatCents } from '../../src/shared/money.ts';
import { PUSH_MESSAGES } from '../../src/shared/push.ts';
import { type ApiClient, fundedMember, signedInAdminClient, signedInMember } from '../helpers/client.ts';
import {
  type FakePushService,
  type FakeSubscription,
  startFakePushService,
  verifiedVapidClaims,
} from '../helpers/fake-push-service.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Web Push delivery (issue 6): the server encrypts each message for the subscription's keys
// (aes128gcm, RFC 8291) and signs it with its VAPID key (RFC 8292); a local fake push service receives
// it and the test decrypts it the way the browser would. A 404 or 410 answer deletes the subscription.
// Admin notifications, money arriving by transfer and finished crypto payments are pushed to the
// members concerned only.

let server: TestServer;
let admin: ApiClient;
let pushService: FakePushService;
let publicKey: string;
beforeAll(async () => {
  server = await startServer({ PUSH_ALLOW_LOOPBACK: 'true', SANDBOX_STEP_MS: '20', PAYMENT_SWEEP_MS: '0' });
  admin = await signedInAdminClient(server.baseUrl);
  pushService = await startFakePushService();
  publicKey = (await admin.get('/push/key')).body.publicKey;
});
afterAll(async () => {
  await server?.stop();
  await pushService?.stop();
});

type Member = Awaited<ReturnType<typeof signedInMember>>;
let devices = 0;
/** A browser subscription of this member at the fake push service, registered with the server. */
async function subscribedDevice(member: Member): Promise<FakeSubscription & { path: string }> {
  devices += 1;
  const path = `/send/device-${devices}`;
  const subscription = pushService.subscription(path);
  const res = await member.client.post('/push/subscriptions', {
    endpoint: subscription.endpoint,
    keys: subscription.keys,
  });
  expect(res.status, res.text).toBe(201);
  return { ...subscription, path };
}
const decrypted = async (device: FakeSubscription & { path: string }) =>
  JSON.parse(device.decrypt((await pushService.waitFor(device.path)).body));
const stillStored = async (endpoint: string) =>
  (await server.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute())
    .length === 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pushToMembers', () => {
  it('sends an encrypted, VAPID-signed message that decrypts to the payload, to every device', async () => {
    const member = await signedInMember(server.baseUrl);
    const phone = await subscribedDevice(member);
    const laptop = await subscribedDevice(member);
    const payload = { title: 'Hello', body: 'Money is on its way', url: '/user/transfer', tag: 't-1' };
    await pushToMembers(server.db, [member.auth.id], payload);

    for (const device of [phone, laptop]) {
      const message = await pushService.waitFor(device.path);
      expect(message.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(message.headers.ttl)).toBeGreaterThan(0);
      const claims = verifiedVapidClaims(String(message.headers.authorization), publicKey);
      expect(claims.aud).toBe(new URL(device.endpoint).origin);
      expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
      expect(JSON.parse(device.decrypt(message.body))).toEqual(payload);
    }
  });

  it('deletes a subscription the push service says is gone (410, 404), keeps one on other errors', async () => {
    const member = await signedInMember(server.baseUrl);
    const gone = await subscribedDevice(member);
    const unknown = await subscribedDevice(member);
    const failing = await subscribedDevice(member);
    pushService.answer(gone.path, 410);
    pushService.answer(unknown.path, 404);
    pushService.answer(failing.path, 500);
    await pushToMembers(server.db, [member.auth.id], { title: 'T', body: 'B', url: '/user/notifications' });

    expect(pushService.at(gone.path)).toHaveLength(1);
    expect(await stillStored(gone.endpoint)).toBe(false);
    expect(await stillStored(unknown.endpoint)).toBe(false);
    expect(await stillStored(failing.endpoint)).toBe(true);
    // A second send no longer tries the gone ones.
    await pushToMembers(server.db, [member.auth.id], { title: 'T', body: 'B', url: '/user/notifications' });
    expect(pushService.at(gone.path)).toHaveLength(1);
    expect(pushService.at(failing.path)).toHaveLength(2);
  });
});

describe('what is pushed', () => {
  it("an admin's notification reaches the chosen members' devices only", async () => {
    const chosen = await signedInMember(server.baseUrl);
    const bystander = await signedInMember(server.baseUrl);
    const chosenDevice = await subscribedDevice(chosen);
    const bystanderDevice = await subscribedDevice(bystander);
    const res = await admin.post('/notifications', {
      title: 'Maintenance tonight',
      message: 'The app pauses at 02:00 UTC',
      users: false,
      recipients: [chosen.auth.id],
    });
    expect(res.status, res.text).toBe(201);

    expect(await decrypted(chosenDevice)).toEqual({
      title: 'Maintenance tonight',
      body: 'The app pauses at 02:00 UTC',
      url: '/user/notifications',
    });
    await sleep(300);
    expect(pushService.at(bystanderDevice.path)).toHaveLength(0);
  });

  it('an all-members notification reaches every member device', async () => {
    const one = await signedInMember(server.baseUrl);
    const two = await signedInMember(server.baseUrl);
    const devicesOfMembers = [await subscribedDevice(one), await subscribedDevice(two)];
    const res = await admin.post('/notifications', { title: 'For everyone', message: 'Hello all' });
    expect(res.status, res.text).toBe(201);
    for (const device of devicesOfMembers) expect((await decrypted(device)).title).toBe('For everyone');
  });

  it('money arriving by a completed transfer is pushed to the recipient once, not to the sender', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '100.00' });
    const recipient = await signedInMember(server.baseUrl);
    const senderDevice = await subscribedDevice(sender);
    const recipientDevice = await subscribedDevice(recipient);
    const send = () =>
      sender.client.post(
        '/transfer/touser',
        { userto_id: recipient.auth.id, amount: '12.50', from: 'business', to: 'business' },
        { 'Idempotency-Key': 'push-once' },
      );
    const res = await send();
    expect(res.status, res.text).toBe(201);
    expect(res.body.transfer.status).toBe('completed');
    // The client retries with the same key: the same answer, and no second push.
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.body.transfer.id).toBe(res.body.transfer.id);

    expect(await decrypted(recipientDevice)).toEqual({
      title: PUSH_MESSAGES.moneyReceivedTitle,
      body: PUSH_MESSAGES.moneyReceivedBody(sender.member.fullname, '12.50'),
      url: '/user/transfer',
    });
    await sleep(300);
    expect(pushService.at(recipientDevice.path)).toHaveLength(1);
    expect(pushService.at(senderDevice.path)).toHaveLength(0);
  });

  it('a transfer waiting for review pushes nothing (the money has not arrived)', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '6000.00' });
    const recipient = await signedInMember(server.baseUrl);
    const recipientDevice = await subscribedDevice(recipient);
    const res = await sender.client.post('/transfer/touser', {
      userto_id: recipient.auth.id,
      amount: '5000.00',
      from: 'business',
      to: 'business',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.transfer.status).toBe('pending');
    await sleep(500);
    expect(pushService.at(recipientDevice.path)).toHaveLength(0);
  });

  it('an approved transfer is pushed to its recipient once, when the admin approves it; a rejected one never', async () => {
    const sender = await fundedMember(server.baseUrl, admin, { business: '12000.00' });
    const recipient = await signedInMember(server.baseUrl);
    const senderDevice = await subscribedDevice(sender);
    const recipientDevice = await subscribedDevice(recipient);
    const held = async () => {
      const res = await sender.client.post('/transfer/touser', {
        userto_id: recipient.auth.id,
        amount: '5000.00',
        from: 'business',
        to: 'business',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.transfer.status).toBe('pending');
      return res.body.transfer.id as string;
    };
    const rejected = await held();
    const rejection = await admin.put(`/transfer/${rejected}/status`, { status: 'failed' });
    expect(rejection.status, rejection.text).toBe(200);
    await sleep(300);
    expect(pushService.at(recipientDevice.path)).toHaveLength(0);

    const approved = await held();
    const approve = () =>
      admin.put(
        `/transfer/${approved}/status`,
        { status: 'completed' },
        { 'Idempotency-Key': 'approve-once' },
      );
    const res = await approve();
    expect(res.status, res.text).toBe(200);
    expect(res.body.transfer.status).toBe('completed');
    // The admin's screen retries with the same key: the same answer, and no second push.
    expect((await approve()).status).toBe(200);
    expect(await decrypted(recipientDevice)).toEqual({
      title: PUSH_MESSAGES.moneyReceivedTitle,
      body: PUSH_MESSAGES.moneyReceivedBody(sender.member.fullname, '5000.00'),
      url: '/user/transfer',
    });
    await sleep(300);
    expect(pushService.at(recipientDevice.path)).toHaveLength(1);
    expect(pushService.at(senderDevice.path)).toHaveLength(0);
  });

  it('a finished crypto payment is pushed to its member once it is credited', async () => {
    const member = await signedInMember(server.baseUrl);
    const device = await subscribedDevice(member);
    const created = await member.client.post('/payments/create-payment', {
      price_amount: '25.50',
      price_currency: 'usd',
      pay_currency: 'usdtbsc',
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.payment_id;
    expect((await member.client.post(`/payments/sandbox/${id}/pay`, {})).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while ((await member.client.get(`/payments/payment-status/${id}`)).body.payment_status !== 'finished') {
      if (Date.now() > deadline) throw new Error('the payment did not finish');
      await sleep(20);
    }

    expect(await decrypted(device)).toEqual({
      title: PUSH_MESSAGES.paymentReceivedTitle,
      body: PUSH_MESSAGES.paymentReceivedBody(formatCents(2550)),
      url: '/user/deposit-history',
    });
    // Polling again does not credit, or push, a second time.
    await member.client.get(`/payments/payment-status/${id}`);
    await sleep(300);
    expect(pushService.at(device.path)).toHaveLength(1);
  });
});
