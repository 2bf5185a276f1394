import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

// A real server process (src/server/main.ts), for what a server inside the test's own process cannot
// show: several instances on one database, a process killed with SIGKILL and started again.

export const PROCESS_ADMIN = { email: 'process-admin@example.com', password: 'Process-Admin-Pass-2026' };

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Starts an instance and waits for its health check. `env` names the database (DATABASE_URL and
 * DATABASE_SCHEMA, or DATA_DIR for SQLite); `dataDir` holds what else the instance keeps.
 */
export async function startServerProcess(
  env: Record<string, string>,
  dataDir: string,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR: join(dataDir, 'no-client'),
      ADMIN_EMAIL: PROCESS_ADMIN.email,
      ADMIN_PASSWORD: PROCESS_ADMIN.password,
      LOG_LEVEL: 'warn',
      PAYMENT_SWEEP_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const url = `http://127.0.0.1:${port}`;
  // A graceful stop (SIGTERM), and SIGKILL if the process has not exited 10 s later: a cleanup must
  // never wait on a server that is stuck.
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server process exited: ${output}`);
    const ok = await fetch(`${url}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, output: () => output, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(`server process did not start: ${output}`);
}
