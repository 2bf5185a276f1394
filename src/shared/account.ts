import * as v from 'valibot';
import { registerSchema, signInSchema } from './auth.ts';

// Issue 14: forgotten passwords, e-mail verification and the mail outbox as admins see it.
// "Password changed successfully" is the spec's "Password change successfuly", spelled right (RULES.md
// "Messages"); the forgot screen never says "User Not Found" (RULES.md "Accounts").

export const ACCOUNT = {
  resetRequested: 'If an account uses this address, we have sent it a link to reset the password.',
  passwordChanged: 'Password changed successfully',
  resetLinkInvalid: 'This reset link is not valid. Please ask for a new one.',
  resetLinkUsed: 'This reset link has already been used. Please ask for a new one.',
  resetLinkExpired: 'This reset link has expired. Please ask for a new one.',
  tokenRequired: 'The reset link is incomplete. Please open the link from the e-mail again.',
  codeSent: 'We have sent a 6-digit code to your e-mail address.',
  codeRequired: 'Please enter the 6-digit code',
  codeFormat: 'The code has 6 digits',
  codeWrong: 'The code is wrong.',
  codeExpired: 'The code has expired. Please ask for a new one.',
  codeMissing: 'There is no code to check. Please ask for a code first.',
  codeTooManyTries: 'Too many wrong codes. Please ask for a new one.',
  emailVerified: 'Your e-mail address is verified.',
  alreadyVerified: 'Your e-mail address is already verified.',
} as const;

/** The screens' own words. */
export const ACCOUNT_TEXT = {
  forgotLink: 'Forgot password?',
  forgotTitle: 'Forgot password',
  forgotIntro: 'Enter the e-mail address you signed up with. We will send you a link to set a new password.',
  sendLink: 'Send reset link',
  resetTitle: 'Set a new password',
  newPassword: 'New password',
  savePassword: 'Save new password',
  backToSignIn: 'Back to sign in',
  verifyTitle: 'E-mail address',
  verified: 'Verified',
  notVerified: 'Not verified',
  sendCode: 'Send code',
  sendCodeAgain: 'Send the code again',
  code: 'Code from the e-mail',
  verify: 'Verify',
} as const;

export const MAIL_TEXT = {
  resetSubject: 'Reset your password',
  verifySubject: 'Your verification code',
} as const;

export const forgotPasswordSchema = v.object({ email: signInSchema.entries.email });
export type ForgotPasswordInput = v.InferOutput<typeof forgotPasswordSchema>;

/** The new password follows the registration rules (one schema for both). */
export const resetPasswordSchema = v.object({
  token: v.pipe(
    v.string(ACCOUNT.tokenRequired),
    v.trim(),
    v.nonEmpty(ACCOUNT.tokenRequired),
    v.maxLength(200, ACCOUNT.resetLinkInvalid),
  ),
  password: registerSchema.entries.password,
});
export type ResetPasswordInput = v.InferOutput<typeof resetPasswordSchema>;

export const verifyCodeSchema = v.object({
  otp: v.pipe(
    v.string(ACCOUNT.codeRequired),
    v.trim(),
    v.nonEmpty(ACCOUNT.codeRequired),
    v.regex(/^\d{6}$/, ACCOUNT.codeFormat),
  ),
});
export type VerifyCodeInput = v.InferOutput<typeof verifyCodeSchema>;

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

/**
 * A mail as support sees it: to whom, what about, and whether it went out. Never its text: reset links
 * and codes are secrets of the member's, and support reading them could take over the account.
 */
export const outboxMailSchema = v.object({
  id: v.string(),
  to: v.string(),
  subject: v.string(),
  status: v.picklist(MAIL_STATUSES),
  attempts: v.number(),
  last_error: v.nullable(v.string()),
  created_at: v.string(),
  sent_at: v.nullable(v.string()),
});
export type OutboxMail = v.InferOutput<typeof outboxMailSchema>;
export const outboxListSchema = v.object({ mails: v.array(outboxMailSchema) });

export const MAIL_STATUS_LABELS: Record<(typeof MAIL_STATUSES)[number], string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
};

export const outboxQuerySchema = v.object({
  to: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254))),
  status: v.optional(v.picklist(MAIL_STATUSES, 'status is pending, sent or failed')),
});
export type OutboxQuery = v.InferOutput<typeof outboxQuerySchema>;

// Resending a failed mail (POST /admin/mail/{id}/resend, docs/rules.md "Mail"): an admin puts it back
// in the outbox once the cause (a full mailbox, a relay down for hours) is fixed.
export const MAIL_ADMIN_TEXT = {
  idInvalid: 'The mail id is not valid.',
  notFound: 'No such mail.',
  resent: 'The mail is back in the outbox and will be sent now.',
  notFailed: (status: string) =>
    `Only a failed mail can be sent again; this one is ${status === 'sent' ? 'already sent' : 'still waiting to be sent'}.`,
} as const;

/** A mail's id in the address: the outbox's ids are UUIDs, but older rows may differ, so any short text. */
export const mailIdParamsSchema = v.object({
  id: v.pipe(
    v.string(MAIL_ADMIN_TEXT.idInvalid),
    v.trim(),
    v.nonEmpty(MAIL_ADMIN_TEXT.idInvalid),
    v.maxLength(64, MAIL_ADMIN_TEXT.idInvalid),
  ),
});
export const mailResendResultSchema = v.object({ message: v.string(), mail: outboxMailSchema });
export type MailResendResult = v.InferOutput<typeof mailResendResultSchema>;
