import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

// Shared by the two-factor specs (member and admin).

const PERIOD_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

/**
 * The member's authenticator app: the code of the current step, or the next step's when the current
 * one was used (the server takes one step either way and each step once), waiting for the clock when
 * even that was used, as a person waits for the app's next code.
 */
export class Authenticator {
  lastStep = 0;
  constructor(readonly secret: string) {}
  async next(page: Page): Promise<string> {
    const step = Math.max(stepNow(), this.lastStep + 1);
    while (step > stepNow() + 1) await page.waitForTimeout(500);
    this.lastStep = step;
    return TOTP.generate({
      secret: Secret.fromBase32(this.secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: step * PERIOD_MS,
    });
  }
}
