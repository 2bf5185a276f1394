import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../../shared/errors.ts';
import {
  web3ApproveSchema,
  web3AssignSchema,
  web3ConfigSchema,
  web3DepositDetailSchema,
  web3DepositIdParamsSchema,
  web3DepositListQuerySchema,
  web3DepositListSchema,
  web3DepositRequestSchema,
  web3DepositResultSchema,
  web3RejectSchema,
  web3SettingsSchema,
} from '../../../shared/web3.ts';
import {
  web3ChallengeRequestSchema,
  web3ChallengeSchema,
  web3ProofRequestSchema,
  web3ProofResultSchema,
  web3WalletListSchema,
} from '../../../shared/web3-wallets.ts';
import type { Db } from '../../db/database.ts';
import { defineRoute, idempotencyKeyOf } from '../../http/route.ts';
import { issueChallenge, myWallets, proofOriginOf, proveWallet } from './wallet-proof.ts';
import {
  adminSettings,
  approveDeposit,
  assignDeposit,
  depositById,
  depositList,
  publicConfig,
  rejectDeposit,
  submitDeposit,
  type Web3Context,
} from './web3.service.ts';

// API.md "On-chain deposits": USDT (BEP20) on BNB Smart Chain, checked on chain by the server.

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export function registerWeb3Routes(
  app: FastifyInstance,
  { db, web3, publicUrl }: { db: Db; web3: Web3Context; publicUrl: string },
): void {
  const origin = proofOriginOf(publicUrl);
  defineRoute(app, {
    method: 'GET',
    url: '/web3/config',
    summary:
      'What the deposit screen needs: chain, token, deposit address, confirmations required, whether the chain check runs, and the (public) WalletConnect project id or null',
    tags: ['web3'],
    access: 'signed-in',
    responses: { 200: web3ConfigSchema, 401: errorBodySchema },
    handler: async () => publicConfig(web3),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/web3/deposits',
    summary:
      'A member submits the hash of a USDT transfer on BNB Smart Chain (chain_id 56 only). The server reads the receipt from its RPC: credited to the Active Wallet after 12 confirmations when sent from a wallet the member proved by signing (else it waits for an admin), once per hash whatever the path; with no RPC configured it waits for an admin (awaiting_admin). 201 for a new deposit (or one taken over: the prover of the sender takes an uncredited deposit another member submitted; a deposit not seen on chain within a day is checked again), 200 with your existing one when you send the same hash again, 409 when another member holds it or another path credited it; accepts an Idempotency-Key header',
    tags: ['web3'],
    access: 'member',
    body: web3DepositRequestSchema,
    responses: { 200: web3DepositResultSchema, 201: web3DepositResultSchema, ...errors },
    handler: async ({ body, user, request, reply }) => {
      const outcome = await submitDeposit(db, web3, user, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/web3/deposits',
    summary: 'On-chain deposits, newest first: your own, or every member’s for an admin (?status= filters)',
    tags: ['web3'],
    access: 'signed-in',
    query: web3DepositListQuerySchema,
    responses: { 200: web3DepositListSchema, 400: errorBodySchema, 401: errorBodySchema },
    handler: async ({ query, user }) => depositList(db, user, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/web3/deposits/:id',
    summary:
      'One on-chain deposit (your own, or any for an admin); a pending or confirming one is re-read from the chain first, so polling this follows it to credited',
    tags: ['web3'],
    access: 'signed-in',
    params: web3DepositIdParamsSchema,
    responses: { 200: web3DepositDetailSchema, 401: errorBodySchema, 404: errorBodySchema },
    handler: async ({ params, user }) => depositById(db, web3, user, params.id),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/web3/settings',
    summary:
      'The on-chain deposit settings in use: chain, token contract, deposit address, confirmations, whether an RPC and a WalletConnect project id are set (never the RPC URL) (admin)',
    tags: ['web3', 'admin'],
    access: 'admin',
    responses: { 200: web3SettingsSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => adminSettings(web3, user),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/web3/deposits/:id/approve',
    summary:
      'Credits a deposit waiting for an admin (awaiting_admin, or pending), once. With the chain check it must show the transfer with 12 confirmations now and the amount is the chain’s (else a 409); without it the amount the admin checked on chain. A decided one, one whose sender another member proved, or a hash credited by another path is a 409 (admin, audited); accepts an Idempotency-Key header',
    tags: ['web3', 'admin'],
    access: 'admin',
    params: web3DepositIdParamsSchema,
    body: web3ApproveSchema,
    responses: { 200: web3DepositResultSchema, ...errors },
    handler: async ({ params, body, user, request, reply }) => {
      const outcome = await approveDeposit(db, web3, user, params.id, body, idempotencyKeyOf(request));
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/web3/deposits/:id/assign',
    summary:
      'Hands an uncredited deposit to the named member who sent it, with a reason (admin, audited). With the chain check it is read again for them at once (credited if they proved the sender’s wallet); a credited one is a 409',
    tags: ['web3', 'admin'],
    access: 'admin',
    params: web3DepositIdParamsSchema,
    body: web3AssignSchema,
    responses: { 200: web3DepositResultSchema, ...errors },
    handler: async ({ params, body, user }) => assignDeposit(db, web3, user, params.id, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/web3/deposits/:id/reject',
    summary:
      'Rejects a deposit waiting for an admin (awaiting_admin, or pending) with a reason the member reads; a decided one is a 409 (admin, audited)',
    tags: ['web3', 'admin'],
    access: 'admin',
    params: web3DepositIdParamsSchema,
    body: web3RejectSchema,
    responses: { 200: web3DepositResultSchema, ...errors },
    handler: async ({ params, body, user }) => rejectDeposit(db, user, params.id, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/web3/wallets/challenge',
    summary:
      'A Sign-In with Ethereum (EIP-4361) message for the member to sign with a wallet (personal_sign) to prove the address is theirs: our domain and URI (PUBLIC_URL), chain 56, a nonce and its expiry; valid 10 minutes, once. Moves no money',
    tags: ['web3'],
    access: 'member',
    body: web3ChallengeRequestSchema,
    responses: { 201: web3ChallengeSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ body, user, reply }) =>
      reply.status(201).send(await issueChallenge(db, user, body, origin)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/web3/wallets',
    summary:
      'Proves a wallet address with the signed challenge: 201 proven (transfers from it are then credited without an admin), 200 already yours, 400 a signature that does not match or an expired message, 409 an address another member proved',
    tags: ['web3'],
    access: 'member',
    body: web3ProofRequestSchema,
    responses: { 200: web3ProofResultSchema, 201: web3ProofResultSchema, ...errors },
    handler: async ({ body, user, reply }) => {
      const outcome = await proveWallet(db, user, body, origin);
      return reply.status(outcome.statusCode).send(outcome.body);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/web3/wallets',
    summary: 'The wallet addresses you proved yours, newest first',
    tags: ['web3'],
    access: 'member',
    responses: { 200: web3WalletListSchema, 401: errorBodySchema, 403: errorBodySchema },
    handler: async ({ user }) => myWallets(db, user),
  });
}
