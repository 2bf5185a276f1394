import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from './config.ts';
import { createDatabase, type Db, type Dialect } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { registerCsrf } from './http/csrf.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerLiveEvents } from './http/live-events.ts';
import { RedactingLogController, serializeRequest } from './http/request-log.ts';
import { isApiRequest } from './http/request-path.ts';
import { installSerializer } from './http/route.ts';
import { registerSessionLoader, sessionCookieName } from './http/session.ts';
import { registerClient } from './http/static-files.ts';
import { startIncomeJob } from './jobs/income.job.ts';
import { startSalaryJob } from './jobs/salary.job.ts';
import { startWeb3Job } from './jobs/web3.job.ts';
import { registerAccountRoutes } from './modules/account/account.routes.ts';
import { registerAchieversRoutes } from './modules/achievers/achievers.routes.ts';
import { registerAuditRoutes } from './modules/audit/audit.routes.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { setPasswordHashCost } from './modules/auth/passwords.ts';
import { getOrCreateSecret } from './modules/auth/secrets.repository.ts';
import { registerSessionsRoutes } from './modules/auth/sessions.routes.ts';
import { registerCtoRoutes } from './modules/cto/cto.routes.ts';
import { registerDepositsRoutes } from './modules/deposits/deposits.routes.ts';
import { registerDisclosureRoutes } from './modules/disclosure/disclosure.routes.ts';
import { registerHealthRoutes } from './modules/health.routes.ts';
import { registerIncomeRoutes } from './modules/income/income.routes.ts';
import { registerMailRoutes } from './modules/mail/mail.routes.ts';
import { startMailWorker } from './modules/mail/mail.worker.ts';
import { registerMetricsRoutes } from './modules/metrics/metrics.routes.ts';
import { createMetrics } from './modules/metrics/metrics.service.ts';
import { registerNeedsActionRoutes } from './modules/needs-action/needs-action.routes.ts';
import { registerNewsRoutes } from './modules/news/news.routes.ts';
import { registerNotificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { registerPayments } from './modules/payments/payments.module.ts';
import { registerPlansRoutes } from './modules/plans/plans.routes.ts';
import { registerProfileRoutes } from './modules/profile/profile.routes.ts';
import { registerPushRoutes } from './modules/push/push.routes.ts';
import { configurePush } from './modules/push/push.service.ts';
import { loadOrCreateVapidKeys } from './modules/push/vapid-keys.ts';
import { registerQrLinksRoutes } from './modules/qr-links/qr-links.routes.ts';
import { registerReportsRoutes } from './modules/reports/reports.routes.ts';
import { registerLeadershipRoutes } from './modules/rewards/leadership.routes.ts';
import { registerRewardsRoutes } from './modules/rewards/rewards.routes.ts';
import { registerSalaryRoutes } from './modules/salary/salary.routes.ts';
import { registerSettingsRoutes } from './modules/settings/settings.routes.ts';
import { registerTeamRoutes } from './modules/team/team.routes.ts';
import { registerTicketsRoutes } from './modules/tickets/tickets.routes.ts';
import { registerCodesRoutes } from './modules/topups/codes.routes.ts';
import { registerTopupsRoutes } from './modules/topups/topups.routes.ts';
import { registerTradeRoutes } from './modules/trade/trade.routes.ts';
import { registerTransactionsRoutes } from './modules/transactions/transactions.routes.ts';
import { registerTransfersRoutes } from './modules/transfers/transfers.routes.ts';
import { loadOrCreateTotpKey, secretBox } from './modules/two-factor/secret-box.ts';
import {
  registerAdminTwoFactorGate,
  registerTwoFactorRoutes,
} from './modules/two-factor/two-factor.routes.ts';
import { registerUploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { MAX_UPLOAD_BYTES } from './modules/uploads/uploads.service.ts';
import { registerUsersRoutes } from './modules/users/users.routes.ts';
import { registerWalletsRoutes } from './modules/wallets/wallets.routes.ts';
import { registerWeb3Routes } from './modules/web3/web3.routes.ts';
import { createWeb3Context } from './modules/web3/web3.service.ts';
import { registerWithdrawalsRoutes } from './modules/withdrawals/withdrawals.routes.ts';
import { warmUpApp, warmUpMark } from './warm-up.ts';

export type App = {
  app: FastifyInstance;
  db: Db;
  dialect: Dialect;
  /**
   * Marks the process as shutting down: /api/v1/health/ready answers 503 from now on, so a load
   * balancer sends it nothing new, and every answer says `Connection: close`, so kept-alive connections
   * move elsewhere. Called on SIGTERM before close (close marks it too).
   */
  drain: () => void;
  /**
   * Runs the hot paths once (src/server/warm-up.ts, unless WARM_UP=off) and only then lets
   * /api/v1/health/ready answer 200. Called once the server listens: liveness answers meanwhile.
   * Rejects when the warm-up failed; readiness answers 200 all the same.
   */
  warmUp: () => Promise<void>;
};

export async function buildApp(config: Config): Promise<App> {
  setPasswordHashCost(config.passwordHashCost);
  const { db, dialect, groupCommit } = createDatabase(config);
  await migrateToLatest(db, dialect === 'postgres' ? config.databaseSchema : undefined);
  const csrfSecret = await getOrCreateSecret(db, 'csrf');
  const vapidKeys = loadOrCreateVapidKeys(config.dataDir);
  const totpBox = secretBox(loadOrCreateTotpKey(config.dataDir, config.totpEncryptionKey));
  const secure = config.publicUrl.startsWith('https://');
  const cookies = { secure };

  const hops = config.trustProxy;
  const warmUpRequests = warmUpMark();
  const app = Fastify({
    // The start's warm-up sends a few thousand requests of its own: neither log lines nor metrics.
    logController: new RedactingLogController({
      disableRequestLogging: (request) => warmUpRequests.is(request.headers),
    }),
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers["x-xsrf-token"]'],
      // A URL's query can hold a secret (the password-reset link): logged redacted (request-log.ts).
      serializers: { req: serializeRequest },
    },
    // Fastify 5.12 ignores a hop count (it cannot tell the proxy from a client that reaches the server
    // directly), so a count is applied here: docs/deployment.md asks for it only where the proxies are
    // the only way in; otherwise name their addresses.
    trustProxy: typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook('onClose', async () => db.destroy());
  let draining = false;
  const drain = () => {
    draining = true;
  };
  app.addHook('preClose', async () => drain());
  let warm = false;
  const warmUp = async () => {
    try {
      if (config.warmUp && !draining)
        await warmUpApp({
          app,
          db,
          mark: warmUpRequests,
          isDraining: () => draining,
          sessionCookie: sessionCookieName(cookies),
        });
    } finally {
      // Ready either way: a failed warm-up makes a slower first few seconds, not a server that never serves.
      warm = true;
    }
  };
  const metrics = createMetrics(db, app.log);
  metrics.observeRequests(app, (request) => warmUpRequests.is(request.headers));
  if (groupCommit) groupCommit.onCommit = metrics.onGroupCommit;
  configurePush(db, {
    keys: vapidKeys,
    subject: config.vapidSubject,
    allowLoopback: config.pushAllowLoopback,
    log: app.log,
  });

  const mailWorker = startMailWorker(db, config.mail, app.log);
  app.addHook('onClose', async () => mailWorker.stop());
  const income = { ...config.income, onRunFinished: metrics.onIncomeRunFinished };
  const incomeJob = startIncomeJob(db, income, app.log);
  app.addHook('onClose', async () => incomeJob.stop());
  const salaryJob = startSalaryJob(db, config.salary, app.log);
  app.addHook('onClose', async () => salaryJob.stop());
  const web3 = createWeb3Context(config.web3, app.log);
  const web3Job = startWeb3Job(db, web3, app.log);
  app.addHook('onClose', async () => web3Job.stop());

  await app.register(fastifyCookie);
  // Image uploads (banner, ticket images): one file per request, read by readImageField.
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 25 },
  });
  // helmet itself rather than its Fastify plugin: the plugin builds helmet's middleware anew for every
  // request (npm run bench).
  const wallet = walletConnectSources(config.web3);
  const securityHeaders = helmet({
    // Everything is served from our own origin: no inline script, no third-party host, except, with a
    // WalletConnect project id, the hosts the deposit screen's wallet connection talks to.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...wallet.img],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...wallet.connect],
        ...(wallet.frame.length ? { frameSrc: ["'self'", ...wallet.frame] } : {}),
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: secure ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  // The headers depend on nothing in the request (no nonce here; the shell adds its own), so helmet
  // runs once and every response gets the same set.
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  securityHeaders({} as never, collector as never, (error?: unknown) => {
    if (error) throw error;
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Member platform API', version: '1.0.0' },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(cookies) } },
      },
    },
  });

  registerErrorHandler(app);
  installSerializer(app);
  registerSessionLoader(app, db, cookies);
  registerAdminTwoFactorGate(app, { db, box: totpBox });
  const csrf = registerCsrf(app, csrfSecret, cookies);
  app.addHook('onSend', async (request, reply) => {
    // Member data must never sit in a shared cache or the browser's disk cache.
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
    if (draining) reply.header('connection', 'close');
  });

  await app.register(
    async (api) => {
      registerHealthRoutes(api, { db, isDraining: () => draining, isWarm: () => warm });
      registerMetricsRoutes(api, { metrics, token: config.metricsToken });
      registerAuthRoutes(api, { db, csrf, cookies, box: totpBox });
      registerSessionsRoutes(api, { db });
      registerTwoFactorRoutes(api, { db, box: totpBox });
      registerSettingsRoutes(api, { db });
      registerUsersRoutes(api, { db });
      registerAuditRoutes(api, { db });
      registerReportsRoutes(api, { db });
      registerWalletsRoutes(api, { db });
      registerTransfersRoutes(api, { db });
      registerLiveEvents(api, { db, groupCommit, config, onClientCount: metrics.onLiveClientCount });
      await registerUploadsRoutes(api, { db, dataDir: config.dataDir });
      registerNotificationsRoutes(api, { db, dataDir: config.dataDir });
      registerTicketsRoutes(api, { db, dataDir: config.dataDir });
      registerPushRoutes(api, { db });
      registerAccountRoutes(api, { db, publicUrl: config.publicUrl });
      registerMailRoutes(api, { db });
      registerProfileRoutes(api, { db });
      registerPlansRoutes(api, { db });
      registerTopupsRoutes(api, { db });
      registerCodesRoutes(api, { db });
      registerIncomeRoutes(api, { db, income });
      registerTransactionsRoutes(api, { db });
      registerWithdrawalsRoutes(api, { db });
      registerTeamRoutes(api, { db });
      registerTradeRoutes(api, { db });
      registerDepositsRoutes(api, { db, dataDir: config.dataDir });
      registerDisclosureRoutes(api, { db });
      registerRewardsRoutes(api, { db });
      registerCtoRoutes(api, { db });
      registerLeadershipRoutes(api, { db });
      registerAchieversRoutes(api, { db, dataDir: config.dataDir });
      registerSalaryRoutes(api, { db, salary: config.salary, nextRun: salaryJob.nextRun });
      registerWeb3Routes(api, { db, web3, publicUrl: config.publicUrl });
      registerNewsRoutes(api, { db, dataDir: config.dataDir });
      registerQrLinksRoutes(api, { db });
      registerNeedsActionRoutes(api, { db });
    },
    { prefix: '/api/v1' },
  );
  registerPayments(app, db, config);
  await registerClient(app, config.clientDir);
  return { app, db, dialect, drain, warmUp };
}

/**
 * The hosts the WalletConnect module (src/client/features/web3/wallet) reaches, none without a project
 * id: the relay (WalletConnect's, or WALLETCONNECT_RELAY_URL), the modal's wallet list and its images,
 * and the verify frame that tells a wallet which site asks.
 */
function walletConnectSources(web3: Config['web3']): { connect: string[]; img: string[]; frame: string[] } {
  if (!web3.walletConnectProjectId) return { connect: [], img: [], frame: [] };
  const relay = web3.walletConnectRelayUrl
    ? [new URL(web3.walletConnectRelayUrl).origin]
    : ['wss://relay.walletconnect.org', 'wss://relay.walletconnect.com'];
  const explorer = 'https://explorer-api.walletconnect.com';
  return {
    connect: [...relay, explorer],
    img: [explorer],
    frame: ['https://verify.walletconnect.org', 'https://verify.walletconnect.com'],
  };
}
