import { buildApp } from './app.ts';
import { type Config, configWarnings, loadConfig } from './config.ts';
import { ensureFirstAdmin } from './modules/users/admins.service.ts';
import { closeGracefullyOnSignals } from './shutdown.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  // A setting refused at start: its lines, without a stack trace that would bury them.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const built = await buildApp(config);
const { app, db, dialect } = built;
for (const warning of configWarnings(config)) app.log.warn(warning);
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
