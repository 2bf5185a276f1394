import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { createDatabase, type Db, type Dialect } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { registerCsrf } from './http/csrf.ts';
import { registerErrorHandler } from './http/errors.ts';
import { installSerializer } from './http/route.ts';
import { registerSessionLoader } from './http/session.ts';
import { registerClient } from './http/static-files.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { getOrCreateSecret } from './modules/auth/secrets.repository.ts';
import { registerHealthRoutes } from './modules/health.routes.ts';
import { registerPayments } from './modules/payments/payments.module.ts';
import { registerTransfersRoutes } from './modules/transfers/transfers.routes.ts';
import { registerUsersRoutes } from './modules/users/users.routes.ts';
import { registerWalletsRoutes } from './modules/wallets/wallets.routes.ts';

export type App = { app: FastifyInstance; db: Db; dialect: Dialect };

export async function buildApp(config: Config): Promise<App> {
  const { db, dialect } = createDatabase(config);
  await migrateToLatest(db, dialect === 'postgres' ? config.databaseSchema : undefined);
  const csrfSecret = await getOrCreateSecret(db, 'csrf');
  const secure = config.publicUrl.startsWith('https://');
  const cookies = { secure };

  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers["x-xsrf-token"]'] },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook('onClose', async () => db.destroy());

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    // Everything is served from our own origin: no inline script, no third-party host.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
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
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Member platform API', version: '1.0.0' },
      servers: [{ url: '/' }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    },
  });

  registerErrorHandler(app);
  installSerializer(app);
  registerSessionLoader(app, db);
  const csrf = registerCsrf(app, csrfSecret, cookies);
  app.addHook('onSend', async (request, reply) => {
    // Member data must never sit in a shared cache or the browser's disk cache.
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  await app.register(
    async (api) => {
      registerHealthRoutes(api, { db });
      registerAuthRoutes(api, { db, csrf, cookies });
      registerUsersRoutes(api, { db });
      registerWalletsRoutes(api, { db });
      registerTransfersRoutes(api, { db });
    },
    { prefix: '/api/v1' },
  );
  registerPayments(app, db, config);
  await registerClient(app, config.clientDir);
  return { app, db, dialect };
}
