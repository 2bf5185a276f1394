import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { API_BASE } from '../../src/shared/constants.ts';
import { projectDialect, sharedDatabase, waitFor } from '../helpers/server-process.ts';

// The request log of a real server process (its stdout, at LOG_LEVEL=info) holds no secret of a URL:
// the password-reset link `/reset-password?token=T` is loaded from the server like any page, and whoever
// reads the logs must not be able to take over the account with it.
const PROCESS_TEST_MS = 120_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type LogLine = { msg?: string; req?: { url?: string } };

const logLines = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

describe('the request log', () => {
  it(
    'redacts the reset token and every other secret of a URL query, and keeps the rest of the URL',
    async () => {
      const shared = await sharedDatabase(projectDialect, {
        dirPrefix: 'request-log',
        schemaPrefix: 'rlog',
        env: { LOG_LEVEL: 'info', INCOME_SCHEDULE: 'off', SALARY_SCHEDULE: 'off' },
        cleanups,
      });
      const server = await shared.start('one');
      const resetToken = randomBytes(32).toString('base64url');
      const otherToken = randomBytes(16).toString('hex');
      await fetch(`${server.url}/reset-password?token=${resetToken}`);
      await fetch(`${server.url}${API_BASE}/plans/list?page=2&Access_Token=${otherToken}&status=active`);

      const seen = await waitFor('both requests in the log', async () => {
        const urls = logLines(server.output()).flatMap((line) =>
          line.msg === 'incoming request' && line.req?.url ? [line.req.url] : [],
        );
        const wanted = urls.filter((url) => url.startsWith('/reset-password') || url.includes('/plans/list'));
        return wanted.length === 2 ? wanted : undefined;
      });
      expect(seen).toEqual([
        '/reset-password?token=[redacted]',
        `${API_BASE}/plans/list?page=2&Access_Token=[redacted]&status=active`,
      ]);
      expect(server.output()).not.toContain(resetToken);
      expect(server.output()).not.toContain(otherToken);
    },
    PROCESS_TEST_MS,
  );
});
