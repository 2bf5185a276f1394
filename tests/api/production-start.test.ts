import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectDialect, sharedDatabase, waitFor } from '../helpers/server-process.ts';

// What an operator sees when a server process starts (docs/deployment.md, "What production refuses"):
// with NODE_ENV=production an unsafe setting stops it before it listens, with one line per setting
// and no stack trace; a setting that starts but deserves a look is a warning in its log.
const PROCESS_TEST_MS = 120_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs src/server/main.ts to its exit (a refused start never listens). */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-production-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += String(d);
    });
    child.stderr.on('data', (d) => {
      output += String(d);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('a production start', () => {
  it(
    'refuses no SMTP_URL and an http PUBLIC_URL: exit 1, one line for each, nothing else',
    async () => {
      const { code, output } = await runToExit({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'nowpayments',
        SMTP_URL: '',
        PUBLIC_URL: 'http://platform.example.com',
      });
      expect(code).toBe(1);
      const lines = output.trim().split('\n');
      expect(lines).toEqual([
        'NODE_ENV=production refuses 2 unsafe setting(s):',
        expect.stringMatching(/^SMTP_URL must be set when NODE_ENV=production: /),
        expect.stringMatching(/^PUBLIC_URL must be an https:\/\/ address when NODE_ENV=production, /),
      ]);
    },
    PROCESS_TEST_MS,
  );

  it(
    'warns in its log about a hop-count TRUST_PROXY when clients can reach the server directly',
    async () => {
      const shared = await sharedDatabase(projectDialect, {
        dirPrefix: 'start-warnings',
        schemaPrefix: 'warn',
        env: { INCOME_SCHEDULE: 'off', SALARY_SCHEDULE: 'off' },
        cleanups,
      });
      const direct = await shared.start('direct', { TRUST_PROXY: '1', HOST: '0.0.0.0' });
      const warning = await waitFor('the warning in the log', async () =>
        direct
          .output()
          .split('\n')
          .find((line) => line.includes('TRUST_PROXY=1 believes')),
      );
      expect(JSON.parse(warning)).toMatchObject({ level: 40, msg: expect.stringMatching(/HOST=0\.0\.0\.0/) });
      await direct.stop();
      const behindNginx = await shared.start('loopback', { TRUST_PROXY: '1', HOST: '127.0.0.1' });
      expect(behindNginx.output()).not.toContain('TRUST_PROXY=1 believes');
    },
    PROCESS_TEST_MS,
  );
});
