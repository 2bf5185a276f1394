import * as v from 'valibot';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_PATTERN } from './constants.ts';
import { AUTH } from './messages.ts';
import { oneLineText } from './text.ts';
import { publicUserSchema } from './users.ts';
import { walletBalanceSchema } from './wallets.ts';

const email = v.pipe(
  v.string(AUTH.emailRequired),
  v.trim(),
  v.nonEmpty(AUTH.emailRequired),
  v.maxLength(254, AUTH.emailInvalid),
  v.email(AUTH.emailInvalid),
  v.toLowerCase(),
);

export const signInSchema = v.object({
  email,
  password: v.pipe(
    v.string(AUTH.passwordRequired),
    v.nonEmpty(AUTH.passwordRequired),
    v.maxLength(PASSWORD_MAX_LENGTH, AUTH.passwordTooLong),
  ),
});
export type SignInInput = v.InferOutput<typeof signInSchema>;

export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{6,12}$/;

export const registerSchema = v.object({
  fullname: v.pipe(
    v.string(AUTH.fullnameRequired),
    v.trim(),
    v.nonEmpty(AUTH.fullnameRequired),
    v.maxLength(100, AUTH.fullnameTooLong),
    oneLineText(),
  ),
  username: v.pipe(v.string(AUTH.usernameInvalid), v.trim(), v.regex(USERNAME_PATTERN, AUTH.usernameInvalid)),
  email,
  phone: v.pipe(
    v.string(AUTH.phoneInvalid),
    v.trim(),
    v.transform((s) => s.replace(/[\s().-]/g, '')),
    v.regex(/^\+?\d{7,15}$/, AUTH.phoneInvalid),
  ),
  password: v.pipe(
    v.string(AUTH.passwordRequired),
    v.nonEmpty(AUTH.passwordRequired),
    v.minLength(PASSWORD_MIN_LENGTH, AUTH.passwordTooShort),
    v.maxLength(PASSWORD_MAX_LENGTH, AUTH.passwordTooLong),
  ),
  // An empty box means "no code": the member joins under the root account.
  reffer_by: v.optional(
    v.pipe(
      v.string(AUTH.referralInvalid),
      v.trim(),
      v.transform((s) => (s === '' ? undefined : s.toUpperCase())),
      v.union([v.undefined(), v.pipe(v.string(), v.regex(REFERRAL_CODE_PATTERN, AUTH.referralInvalid))]),
    ),
  ),
});
export type RegisterInput = v.InferOutput<typeof registerSchema>;

/** The sign-in screen's own texts (issue 22): said after a sign-out, and the way in after registering. */
export const SIGN_IN_TEXT = {
  signedOut: "You're signed out",
  signIn: 'Sign in',
} as const;

export const messageSchema = v.object({ message: v.string() });

/** A member as the API shows them: the User fields plus their wallet balances (API.md "Accounts"). */
export const memberSchema = v.object({ ...publicUserSchema.entries, balance: walletBalanceSchema });
export const memberSessionSchema = v.object({ auth: memberSchema, expireAt: v.string() });
export type MemberSession = v.InferOutput<typeof memberSessionSchema>;
export const adminSessionSchema = v.object({ admin: publicUserSchema, expireAt: v.string() });
export type AdminSession = v.InferOutput<typeof adminSessionSchema>;
export const currentSessionSchema = v.union([memberSessionSchema, adminSessionSchema]);

export const csrfSchema = v.object({ csrfToken: v.string() });
