import type { FastifyInstance } from 'fastify';
import { messageSchema } from '../../../shared/auth.ts';
import { API_BASE } from '../../../shared/constants.ts';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  anyCodeSchema,
  TWO_FACTOR,
  totpCodeSchema,
  twoFactorEnabledSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../../shared/two-factor.ts';
import { forbidden } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';
import {
  adminLacksRequiredTwoFactor,
  confirmSetup,
  startSetup,
  type TwoFactorDeps,
  turnOff,
  twoFactorStatus,
} from './two-factor.service.ts';

export function registerTwoFactorRoutes(app: FastifyInstance, deps: TwoFactorDeps): void {
  const { db } = deps;
  const tags = ['two-factor'];
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 422: errorBodySchema, 429: errorBodySchema };

  defineRoute(app, {
    method: 'GET',
    url: '/two-factor',
    summary:
      'Whether two-factor sign-in is on for the signed-in person, whether it is required of them (admins), and how many recovery codes are left',
    tags,
    access: 'signed-in',
    responses: { 200: twoFactorStatusSchema, 401: errorBodySchema },
    handler: async ({ user }) => twoFactorStatus(db, user.user),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/two-factor/setup',
    summary:
      'Start setting up two-factor sign-in: a new pending secret, as an otpauth:// URI (for the QR code) and in base32 (to type in)',
    tags,
    access: 'signed-in',
    responses: { 200: twoFactorSetupSchema, ...errors },
    handler: async ({ user }) => startSetup(deps, user.user),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/two-factor/confirm',
    summary:
      'Turn two-factor sign-in on with a current code from the pending secret; answers the ten recovery codes, once',
    tags,
    access: 'signed-in',
    body: totpCodeSchema,
    responses: { 200: twoFactorEnabledSchema, ...errors },
    handler: async ({ body, user }) => ({
      message: TWO_FACTOR.turnedOn,
      recovery_codes: await confirmSetup(deps, user.user, body.code),
    }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/two-factor/disable',
    summary: 'Turn two-factor sign-in off with a current code or a recovery code',
    tags,
    access: 'signed-in',
    body: anyCodeSchema,
    responses: { 200: messageSchema, ...errors },
    handler: async ({ body, user }) => {
      await turnOff(deps, user.user, body.code);
      return { message: TWO_FACTOR.turnedOff };
    },
  });
}

/** The calls an admin may make while two-factor sign-in is required of them and not yet on. */
const OPEN_WHILE_REQUIRED = [`${API_BASE}/auth/session`, `${API_BASE}/two-factor`, `${API_BASE}/events`];

/**
 * The admin setting's gate, on every signed-in call: an admin who must use two-factor sign-in and has
 * not set it up gets a 403 everywhere but their session, signing out and the set-up calls.
 */
export function registerAdminTwoFactorGate(app: FastifyInstance, deps: TwoFactorDeps): void {
  app.addHook('onRequest', async (request) => {
    const current = request.sessionUser;
    if (current?.user.role !== 'admin') return;
    const route = request.routeOptions.url ?? '';
    // Public calls (sign-in, sign-out, the CSRF token) are no admin's calls.
    if (!request.routeOptions.schema?.security) return;
    if (OPEN_WHILE_REQUIRED.some((open) => route === open || route.startsWith(`${open}/`))) return;
    if (await adminLacksRequiredTwoFactor(deps.db, current.user))
      throw forbidden(TWO_FACTOR.requiredForAdmins);
  });
}
