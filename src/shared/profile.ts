import * as v from 'valibot';
import { ACCOUNT, verifyCodeSchema } from './account.ts';
import { memberSchema, registerSchema, signInSchema } from './auth.ts';
import { PAYOUT_NETWORKS, payoutAddressField } from './payout-address.ts';

// Issue 14, the member's profile (/user/profile/{id}): details, name and phone, the BEP20 and TRC20
// payout addresses, and the e-mailed one-time codes (POST /otp/send, /otp/verify) that guard an address
// change now and a withdrawal later. RULES.md: an address the member saved is usable for withdrawals
// 24 hours later; one an admin set, at once.

export const OTP_PURPOSES = ['withdrawal', 'address'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];

/** A member-saved address waits this long before withdrawals may use it (RULES.md). */
export const MEMBER_ADDRESS_HOLD_MS = 24 * 60 * 60_000;

export const PROFILE = {
  purposeInvalid: 'purpose is withdrawal or address',
  userIdRequired: 'userId is required',
  notYours: 'You can only ask codes for your own account and e-mail address',
  codeRight: 'The code is right.',
  codeUsed: 'This code has already been used. Please ask for a new one.',
  codeNeeded: 'Enter the code we e-mailed you to change a payout address',
  updated: 'Your profile has been updated.',
  nothingToChange: 'Send at least one field to change',
  unknownField: 'This field cannot be changed here',
} as const;

/** The screens' own words. */
export const PROFILE_TEXT = {
  title: 'Profile',
  details: 'Your details',
  fullname: 'Full name',
  phone: 'Phone',
  username: 'Username',
  email: 'E-mail',
  sponsor: 'Sponsor',
  noSponsor: 'None',
  referralCode: 'Referral code',
  joined: 'Joined',
  save: 'Save',
  addresses: 'Payout addresses',
  addressesIntro: 'Withdrawals are paid to these addresses. Changing one needs a code we e-mail you.',
  notSet: 'Not set',
  change: 'Change',
  cancel: 'Cancel',
  newAddress: (label: string) => `New ${label} address`,
  clearHint: 'Leave it empty to remove the address.',
  sendCode: 'Send code',
  sendCodeAgain: 'Send the code again',
  code: 'Code from the e-mail',
  saveAddress: 'Save address',
  copy: 'Copy',
  copied: 'Address copied',
  usableFrom: (when: string) => `Usable for withdrawals from ${when}`,
  usableNow: 'Usable for withdrawals',
  profileLink: 'Profile',
} as const;

export const NETWORK_LABELS = { bep20: 'BEP20', trc20: 'TRC20' } as const;

export const MAIL_TEXT_OTP = {
  addressSubject: 'Your code to change a payout address',
  addressIntro: 'Your code to change a payout address on your account:',
  withdrawalSubject: 'Your code to confirm a withdrawal',
  withdrawalIntro: 'Your code to confirm a withdrawal:',
  notYou: 'If you did not ask for it, someone may know your password: change it now.',
} as const;

const purpose = v.picklist(OTP_PURPOSES, PROFILE.purposeInvalid);
const userId = v.pipe(v.string(PROFILE.userIdRequired), v.trim(), v.nonEmpty(PROFILE.userIdRequired));

/** POST /otp/send: userId and email must be the signed-in member's own (else 403). */
export const otpSendSchema = v.object({ userId, email: signInSchema.entries.email, purpose });
export type OtpSendInput = v.InferOutput<typeof otpSendSchema>;

/** POST /otp/verify: checks the code without using it up; the call it guards uses it. */
export const otpVerifySchema = v.object({ userId, otp: verifyCodeSchema.entries.otp, purpose });
export type OtpVerifyInput = v.InferOutput<typeof otpVerifySchema>;

/** An optional code: an empty box is no code (the server says when one is needed). */
const optionalOtp = v.optional(
  v.pipe(
    v.string(ACCOUNT.codeRequired),
    v.trim(),
    v.transform((s) => (s === '' ? undefined : s)),
    v.union([v.undefined(), verifyCodeSchema.entries.otp]),
  ),
);

const PROFILE_FIELDS = ['fullname', 'phone', 'bep20', 'trc20'] as const;

/**
 * PUT /profile (member): name and phone by the registration rules, addresses by the payout rule (an
 * empty one clears it). Changing or clearing an address needs `otp` (purpose `address`); any other
 * field is a 400.
 */
export const profileUpdateSchema = v.pipe(
  v.objectWithRest(
    {
      fullname: v.optional(registerSchema.entries.fullname),
      phone: v.optional(registerSchema.entries.phone),
      bep20: payoutAddressField('bep20'),
      trc20: payoutAddressField('trc20'),
      otp: optionalOtp,
    },
    v.never(PROFILE.unknownField),
  ),
  v.check((input) => PROFILE_FIELDS.some((k) => input[k] !== undefined), PROFILE.nothingToChange),
);
export type ProfileUpdateInput = v.InferOutput<typeof profileUpdateSchema>;

/** The client's forms: name and phone together; one address with its code. */
export const profileDetailsSchema = v.object({
  fullname: registerSchema.entries.fullname,
  phone: registerSchema.entries.phone,
});
export type ProfileDetailsInput = v.InferOutput<typeof profileDetailsSchema>;

export const addressChangeSchemas = {
  bep20: v.object({ bep20: payoutAddressField('bep20'), otp: verifyCodeSchema.entries.otp }),
  trc20: v.object({ trc20: payoutAddressField('trc20'), otp: verifyCodeSchema.entries.otp }),
} as const;

export const payoutAddressSchema = v.object({
  network: v.picklist(PAYOUT_NETWORKS),
  address: v.nullable(v.string()),
  /** null: set before changes were recorded, or never set. */
  changed_at: v.nullable(v.string()),
  changed_by: v.nullable(v.picklist(['member', 'admin'])),
  /** When withdrawals may use it; null means at once (never changed since this was recorded). */
  usable_from: v.nullable(v.string()),
});
export type PayoutAddress = v.InferOutput<typeof payoutAddressSchema>;

/** GET /profile: the signed-in member's own details, with what the session's `auth` lacks. */
export const profileSchema = v.object({
  profile: v.object({
    id: v.string(),
    fullname: v.string(),
    username: v.string(),
    email: v.string(),
    phone: v.string(),
    refferal_code: v.string(),
    created_at: v.string(),
    verify_at: v.nullable(v.string()),
    sponsor: v.nullable(v.object({ fullname: v.string(), username: v.string() })),
    addresses: v.array(payoutAddressSchema),
  }),
});
export type Profile = v.InferOutput<typeof profileSchema>['profile'];

export const profileUpdatedSchema = v.object({ message: v.string(), auth: memberSchema });
