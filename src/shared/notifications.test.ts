import { describe, expect, it } from 'vitest';
import { isMemberLink, NOTIFICATION_LINKS } from './notifications.ts';

// A notification's link is followed by the member's app: only a path inside /user/ may be stored.

describe('isMemberLink', () => {
  it('accepts the paths the app links to', () => {
    for (const link of [
      NOTIFICATION_LINKS.moneyReceived,
      NOTIFICATION_LINKS.depositCredited,
      NOTIFICATION_LINKS.balanceAdjusted,
      NOTIFICATION_LINKS.ticket('TCK-20260101-ABC123'),
      NOTIFICATION_LINKS.ticket('a b/c'),
    ])
      expect(isMemberLink(link), link).toBe(true);
  });

  it('refuses anything that could leave the member area or the site', () => {
    for (const link of [
      'https://evil.example/user/',
      '//evil.example/user/',
      '/user//evil.example',
      '/admin/dashboard',
      '/user/../admin/dashboard',
      '/user/queries/..',
      '/user/%2e%2e/admin/dashboard',
      '/user/%2E%2E/admin',
      '/user/./dashboard',
      'javascript:alert(1)',
      '/user/\\evil',
      ' /user/dashboard',
      '/users/dashboard',
      `/user/${'a'.repeat(400)}`,
    ])
      expect(isMemberLink(link), link).toBe(false);
  });
});
