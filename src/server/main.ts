import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ensureFirstAdmin } from './modules/users/admins.service.ts';
import { closeGracefullyOnSignals } from './shutdown.ts';

const config = loadConfig();
const built = await buildApp(config);
const { app, db, dialect } = built;
closeGracefullyOnSignals(built, config.shutdown);
await ensureFirstAdmin(db, config, (line) => console.log(line));
await app.listen({ port: config.port, host: config.host });
console.log(
  `Serving the app and the API at ${config.publicUrl} (database: ${dialect === 'sqlite' ? config.dataDir : 'PostgreSQL'})`,
);
// Liveness answers from here; readiness once the warm-up is done.
await built.warmUp().catch((error: unknown) => {
  app.log.error({ err: error }, 'the warm-up failed: ready without it');
});
