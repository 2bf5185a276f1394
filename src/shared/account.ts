import * as v from 'valibot';
import { registerSchema, signInSchema } from './auth.ts';
import { PASSWORD_MAX_LENGTH } from './constants.ts';

// Passwords forgotten and changed, e-mail verification and the mail outbox as admins see it.
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
  currentPasswordRequired: 'Please enter your current password',
  currentPasswordWrong:
    'That is not your current password. Try again, or sign out and use "Forgot password?".',
  passwordUnchanged: 'Choose a new password that differs from your current one.',
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
  changeTitle: 'Password',
  changeIntro:
    'Change your password here. Every other device where your account is signed in is signed out, and we e-mail you that it changed.',
  currentPassword: 'Current password',
  changePassword: 'Change password',
  changed: 'Your password is changed. Every other device is signed out.',
} as const;

export const MAIL_TEXT = {
  resetSubject: 'Reset your password',
  verifySubject: 'Your verification code',
  changedSubject: 'Your password was changed',
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

/** A signed-in member's new password: the current one, then one by the registration rules. */
export const changePasswordSchema = v.object({
  current_password: v.pipe(
    v.string(ACCOUNT.currentPasswordRequired),
    v.nonEmpty(ACCOUNT.currentPasswordRequired),
    v.maxLength(PASSWORD_MAX_LENGTH, ACCOUNT.currentPasswordWrong),
  ),
  password: registerSchema.entries.password,
});
export type ChangePasswordInput = v.InferOutput<typeof changePasswordSchema>;

export const verifyCodeSchema = v.object({
  otp: v.pipe(
    v.string(ACCOUNT.codeRequired),
    v.trim(),
    v.nonEmpty(ACCOUNT.codeRequired),
    v.regex(/^\d{6}$/, ACCOUNT.codeFormat),
  ),
});
export type VerifyCodeInput = v.InferOutput<typeof verifyCodeSchema>;
