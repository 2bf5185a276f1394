import type { FastifyInstance } from 'fastify';
import { ACCOUNT } from '../../../shared/account.ts';
import { messageSchema } from '../../../shared/auth.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  otpSendSchema,
  otpVerifySchema,
  PROFILE,
  profileSchema,
  profileUpdatedSchema,
  profileUpdateSchema,
} from '../../../shared/profile.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';
import { findUserById } from '../users/users.repository.ts';
import { toPublicUser } from '../users/users.service.ts';
import { walletBalance } from '../wallets/wallets.service.ts';
import { sendOtp, verifyOtp } from './otp.service.ts';
import { readProfile, updateProfile } from './profile.service.ts';

export type ProfileDeps = { db: Db };

export function registerProfileRoutes(app: FastifyInstance, deps: ProfileDeps): void {
  const { db } = deps;

  defineRoute(app, {
    method: 'GET',
    url: '/profile',
    summary:
      'The signed-in member’s profile: details, sponsor, referral code, and each payout address with when withdrawals may use it',
    tags: ['profile'],
    access: 'member',
    responses: { 200: profileSchema },
    handler: async ({ user }) => ({ profile: await readProfile(db, user) }),
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/profile',
    summary:
      'Change the signed-in member’s fullname, phone, bep20, trc20 (checksums checked; empty removes). Changing or removing an address needs otp from POST /otp/send with purpose address; a member-saved address is usable for withdrawals 24 hours later',
    tags: ['profile'],
    access: 'member',
    body: profileUpdateSchema,
    responses: { 200: profileUpdatedSchema, 400: errorBodySchema },
    handler: async ({ body, user }) => {
      await updateProfile(db, user, body);
      const row = await findUserById(db, user.user.id);
      if (!row) throw notFound();
      return {
        message: PROFILE.updated,
        auth: { ...toPublicUser(row), balance: await walletBalance(db, row.id) },
      };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/otp/send',
    summary:
      'Mail the signed-in member a 6-digit code (valid for the e-mailed code lifetime setting, 15 minutes by default; replaces the previous one) for purpose withdrawal or address; userId and email must be their own (else 403); at most 5 an hour per member and 20 per client address (429)',
    tags: ['otp'],
    access: 'member',
    body: otpSendSchema,
    responses: { 200: messageSchema, 400: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema },
    handler: async ({ body, user, request }) => {
      await sendOtp(db, user, body, request.ip);
      return { message: ACCOUNT.codeSent };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/otp/verify',
    summary:
      'Check a code for a purpose without using it up (the call it guards does); 400 when wrong, expired, used or after 5 wrong tries',
    tags: ['otp'],
    access: 'member',
    body: otpVerifySchema,
    responses: { 200: messageSchema, 400: errorBodySchema, 403: errorBodySchema },
    handler: async ({ body, user }) => {
      await verifyOtp(db, user, body);
      return { message: PROFILE.codeRight };
    },
  });
}
