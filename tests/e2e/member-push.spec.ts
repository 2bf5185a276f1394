import { expect, test } from '@playwright/test';
import { PUSH_MESSAGES } from '../../src/shared/push.ts';
import { type Member, newMember, registerByApi, signInMember } from './helpers.ts';
import { waitForControl } from './pwa-helpers.ts';

// Web Push in the installed app (issue 6), on a phone. A push message is delivered to the service
// worker through the DevTools protocol (ServiceWorker.deliverPushMessage), as a push service would:
// the worker shows it as a notification. The protocol cannot tap a system notification, so the tap is
// the worker's own notificationclick event for that notification, dispatched inside the worker.
// Permission is never asked on load: the member asks for it with "Turn on notifications".

let member: Member;

test.beforeAll(async ({ request }) => {
  member = newMember('push');
  await registerByApi(request, member);
});

test('"Turn on notifications" is offered on the notifications screen; nothing is asked on load', async ({
  page,
}) => {
  await signInMember(page, member);
  await page.goto('/user/notifications');
  await expect(page.getByRole('button', { name: PUSH_MESSAGES.turnOn })).toBeVisible();
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
});

test('where the member blocked notifications the screen says so instead of asking', async ({
  page,
  context,
}) => {
  await signInMember(page, member);
  // Chromium's DevTools protocol: this origin's notification permission set to denied.
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', {
    permission: { name: 'notifications' },
    setting: 'denied',
    origin: new URL(page.url()).origin,
    browserContextId: targetInfo.browserContextId,
  });
  await page.goto('/user/notifications');
  await expect(page.getByText(PUSH_MESSAGES.blocked)).toBeVisible();
  await expect(page.getByRole('button', { name: PUSH_MESSAGES.turnOn })).toBeHidden();
});

test('a push message shows a notification, and tapping it opens its screen in the open window', async ({
  page,
  context,
}) => {
  await signInMember(page, member);
  await waitForControl(page);
  const origin = new URL(page.url()).origin;
  await context.grantPermissions(['notifications'], { origin });

  const cdp = await context.newCDPSession(page);
  // The protocol reports the workers of every context of the browser, all with this scope: ours is the
  // one whose worker target belongs to this page's context (a closed test's worker may linger).
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  const versions: { registrationId: string; targetId?: string }[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => versions.push(...event.versions));
  await cdp.send('ServiceWorker.enable');
  const ourRegistration = async () => {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const ourWorkers = new Set(
      targetInfos
        .filter((t) => t.type === 'service_worker' && t.browserContextId === targetInfo.browserContextId)
        .map((t) => t.targetId),
    );
    return versions.find((v) => v.targetId !== undefined && ourWorkers.has(v.targetId))?.registrationId;
  };
  await expect.poll(ourRegistration).toBeTruthy();
  const registrationId = (await ourRegistration()) as string;
  const payload = {
    title: 'Money received',
    body: 'Alex sent you $12.50',
    url: '/user/transfer',
    tag: 't-42',
  };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId,
    data: JSON.stringify(payload),
  });

  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        icon: n.icon,
        tag: n.tag,
        data: n.data as unknown,
      })),
    );
  await expect.poll(shown).toEqual([
    {
      title: payload.title,
      body: payload.body,
      icon: `${origin}/icons/icon-192.png`,
      tag: payload.tag,
      data: { url: '/user/transfer' },
    },
  ]);
  await expect(page).toHaveURL(/\/user\/dashboard$/);

  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker');
  await worker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    if (!notification) throw new Error('no notification to tap');
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
  });
  await expect(page).toHaveURL(/\/user\/transfer(\?|$)/);
  await expect(page.getByTestId('member-name')).toHaveText(member.fullname);
  // The tapped notification is closed.
  await expect.poll(shown).toEqual([]);
});
