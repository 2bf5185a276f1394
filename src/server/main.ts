import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ensureFirstAdmin } from './modules/users/admins.service.ts';

const config = loadConfig();
const { app, db, dialect, drain } = await buildApp(config);
await ensureFirstAdmin(db, config, (line) => console.log(line));
await app.listen({ port: config.port, host: config.host });
console.log(
  `Serving the app and the API at ${config.publicUrl} (database: ${dialect === 'sqlite' ? config.dataDir : 'PostgreSQL'})`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // Not ready first (the load balancer stops sending), then close: in-flight requests finish.
    drain();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
