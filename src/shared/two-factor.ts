import * as v from 'valibot';
import { adminSessionSchema, memberSessionSchema } from './auth.ts';

// Issue 14 item 4: two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step either
// way), ten single-use recovery codes shown once, and the admin setting that requires it for admins.

export const TOTP_ISSUER = 'Member Platform';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the server's clock (a phone a little fast or slow). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes one sign-in challenge takes before it ends. */
export const CHALLENGE_MAX_TRIES = 5;
export const CHALLENGE_TTL_MS = 5 * 60_000;

export const TWO_FACTOR = {
  codeRequired: 'Please enter the code',
  codeFormat: 'Enter the 6-digit code from your app or one of your recovery codes',
  totpFormat: 'The code has 6 digits',
  codeWrong: 'The code is wrong.',
  alreadyOn: 'Two-factor sign-in is already on.',
  notOn: 'Two-factor sign-in is not on.',
  noSetup: 'Start setting up two-factor sign-in first.',
  turnedOn: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  turnedOff: 'Two-factor sign-in is off.',
  challengeMissing: 'Your sign-in has expired. Please sign in again with your password.',
  challengeTooManyTries: 'Too many wrong codes. Please sign in again with your password.',
  requiredForAdmins:
    'Two-factor sign-in is required for admins. Turn it on under Settings before doing anything else.',
  adminCannotTurnOff:
    'Two-factor sign-in is required for admins: it cannot be turned off while that setting is on.',
  settingNeedsOwn: 'Turn on your own two-factor sign-in before requiring it for admins.',
} as const;

/** The screens' own words. */
export const TWO_FACTOR_TEXT = {
  title: 'Two-factor sign-in',
  adminTitle: 'Your two-factor sign-in',
  on: 'On',
  off: 'Off',
  intro: 'After your password, sign-in also asks for a 6-digit code from an authenticator app on your phone.',
  start: 'Turn on',
  scan: 'Scan this QR code with your authenticator app, or type the key into it.',
  secretLabel: 'Key for manual entry',
  confirmCode: 'Code from the app',
  confirm: 'Confirm',
  cancel: 'Cancel',
  recoveryTitle: 'Your recovery codes',
  recoveryHelp:
    'Each code signs you in once if you lose your phone. They are shown only now: copy them somewhere safe.',
  copy: 'Copy',
  copied: 'Recovery codes copied',
  done: 'Done',
  recoveryLeft: (n: number) => `${n} of ${RECOVERY_CODE_COUNT} recovery codes left`,
  turnOff: 'Turn off',
  turnOffCode: 'Code from the app or a recovery code',
  codeStep: 'Two-factor code',
  codeStepIntro: 'Enter the 6-digit code from your authenticator app.',
  recoveryStepIntro: 'Enter one of your recovery codes. Each works once.',
  useRecovery: 'Use a recovery code',
  useApp: 'Use the code from the app',
  recoveryCode: 'Recovery code',
  verify: 'Verify',
  startOver: 'Sign in again',
  adminRequiredNotice:
    'Two-factor sign-in is required for admins. Turn it on here to use the rest of the admin area.',
  settingsTitle: 'Settings',
  requireForAdmins: 'Require two-factor sign-in for admins',
  requireHelp: 'Admins without it can sign in, but can do nothing until they turn it on.',
  save: 'Save',
} as const;

const RECOVERY_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;
const TOTP_PATTERN = /^\d{6}$/;

export const isTotpCode = (code: string) => TOTP_PATTERN.test(code);
/** Recovery codes are shown as `abcde-fghij`; typed with or without the dash, in any case. */
export const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

const required = v.pipe(v.string(TWO_FACTOR.codeRequired), v.trim(), v.nonEmpty(TWO_FACTOR.codeRequired));

/** A code from the authenticator app only (confirming the set-up). */
export const totpCodeSchema = v.object({
  code: v.pipe(required, v.regex(TOTP_PATTERN, TWO_FACTOR.totpFormat)),
});
/** A code from the app or a recovery code (signing in, turning it off). */
export const anyCodeSchema = v.object({
  code: v.pipe(
    required,
    v.check((code) => TOTP_PATTERN.test(code) || RECOVERY_PATTERN.test(code), TWO_FACTOR.codeFormat),
  ),
});
export type CodeInput = v.InferOutput<typeof anyCodeSchema>;

export const twoFactorStatusSchema = v.object({
  enabled: v.boolean(),
  /** An admin while the setting requires it: without it, only the enrolment calls answer. */
  required: v.boolean(),
  recovery_codes_left: v.number(),
});
export type TwoFactorStatus = v.InferOutput<typeof twoFactorStatusSchema>;

export const twoFactorSetupSchema = v.object({ otpauth_uri: v.string(), secret: v.string() });
export type TwoFactorSetup = v.InferOutput<typeof twoFactorSetupSchema>;

export const twoFactorEnabledSchema = v.object({ message: v.string(), recovery_codes: v.array(v.string()) });
export type TwoFactorEnabled = v.InferOutput<typeof twoFactorEnabledSchema>;

/** POST /auth/signin and /auth/adminsignin when the password is right and two-factor sign-in is on. */
export const otpRequiredSchema = v.object({ otp_required: v.literal(true) });
export type OtpRequired = v.InferOutput<typeof otpRequiredSchema>;
export const otpSessionSchema = v.union([memberSessionSchema, adminSessionSchema]);
