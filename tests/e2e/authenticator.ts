import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

// Shared by the two-factor specs (member and admin).

const PERIOD_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / PERIOD_MS);
/** A code of the step before stays good until the current step ends: used only with this much left. */
const PREVIOUS_STEP_MARGIN_MS = 5_000;

/**
 * The member's authenticator app. The server takes a code of the step before, the current step or the
 * next (clock drift either way), each step once and in order: the first code is the step before's
 * while the current step has a few seconds left, then each code the next step's. Three codes then need
 * no wait; a fourth waits for the clock, as a person waits for the app's next code.
 */
export class Authenticator {
  lastStep = 0;
  constructor(readonly secret: string) {}
  async next(page: Page): Promise<string> {
    const now = Date.now();
    const leftInStep = PERIOD_MS - (now % PERIOD_MS);
    const earliest = leftInStep > PREVIOUS_STEP_MARGIN_MS ? stepNow() - 1 : stepNow();
    const step = Math.max(earliest, this.lastStep + 1);
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
