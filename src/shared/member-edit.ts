import * as v from 'valibot';
import { USERNAME_PATTERN } from './constants.ts';
import { AUTH } from './messages.ts';
import { parseCents } from './money.ts';
import { payoutAddressField } from './payout-address.ts';
import { oneLineText } from './text.ts';
import {
  ACTIVE_FLAGS,
  EDITABLE_FIELDS,
  MEMBER_ADMIN_MESSAGES,
  OPEN_CLOSE,
  USER_MESSAGES,
  USER_STATUSES,
} from './users.ts';

// The admin's edit of a member (PUT /users/{id}). A file of its own, imported by the server only: the
// payout addresses' checksum code (hashes, base58) then stays out of the member's main bundle, which
// imports users.ts.

// The same rules and words as registration (auth.ts); auth.ts imports this file, so its schemas cannot be imported here.
const M = { ...MEMBER_ADMIN_MESSAGES, ...AUTH };
const emptyToNull = (s: string) => (s === '' ? null : s);
/** A text the admin may clear: an empty box stores nothing (null). */
const clearableText = (pattern: RegExp | null, max: number, message: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.string(message)),
      v.transform((s) => (s === null ? null : emptyToNull(s.trim()))),
      v.check((s) => s === null || s.length <= max, message),
      v.check((s) => s === null || pattern === null || pattern.test(s), message),
    ),
  );
/** A display or override figure (business, business_balance): 0 or more, at most 2 decimals, stored as cents. */
const overrideAmount = (message: string) =>
  v.optional(
    v.pipe(
      v.union([v.string(message), v.number(message)], message),
      v.transform((input) => parseCents(input)),
      v.number(message),
    ),
  );

/**
 * PUT /users/{id} (admin): the fields of the spec's edit form, validated here for the server (the spec's
 * form itself does no client validation). `role` is shown but never changes (spec 6): sending it is a
 * 400, as is a password or any field not listed. updated_at is accepted as the spec's client sends it,
 * and set by the server. business and business_balance are display and override figures: no wallet
 * balance changes through this call.
 */
export const memberEditSchema = v.pipe(
  v.objectWithRest(
    {
      username: v.optional(
        v.pipe(v.string(M.usernameInvalid), v.trim(), v.regex(USERNAME_PATTERN, M.usernameInvalid)),
      ),
      email: v.optional(
        v.pipe(
          v.string(M.emailRequired),
          v.trim(),
          v.nonEmpty(M.emailRequired),
          v.maxLength(254, M.emailInvalid),
          v.email(M.emailInvalid),
          v.toLowerCase(),
        ),
      ),
      status: v.optional(v.picklist(USER_STATUSES, M.statusInvalid)),
      is_active: v.optional(v.picklist(ACTIVE_FLAGS, M.isActiveInvalid)),
      roi_status: v.optional(v.picklist(OPEN_CLOSE, M.roiStatusInvalid)),
      level_status: v.optional(v.picklist(OPEN_CLOSE, M.levelStatusInvalid)),
      address: clearableText(null, 500, M.addressTooLong),
      business: overrideAmount(M.businessInvalid),
      business_balance: overrideAmount(M.businessBalanceInvalid),
      fullname: v.optional(
        v.pipe(
          v.string(M.fullnameRequired),
          v.trim(),
          v.nonEmpty(M.fullnameRequired),
          v.maxLength(100, M.fullnameTooLong),
          oneLineText(),
        ),
      ),
      phone: v.optional(
        v.pipe(
          v.string(M.phoneInvalid),
          v.trim(),
          v.transform((s) => s.replace(/[\s().-]/g, '')),
          v.regex(/^\+?\d{7,15}$/, M.phoneInvalid),
        ),
      ),
      // The member's profile checks them by the same rule (checksums included).
      bep20: payoutAddressField('bep20'),
      trc20: payoutAddressField('trc20'),
      role: v.optional(v.never(USER_MESSAGES.roleLocked)),
      password: v.optional(v.never(M.passwordLocked)),
      updated_at: v.optional(v.string()),
    },
    v.never(M.unknownField),
  ),
  v.check((input) => EDITABLE_FIELDS.some((k) => input[k] !== undefined), USER_MESSAGES.nothingToChange),
);
export type MemberEdit = v.InferOutput<typeof memberEditSchema>;
