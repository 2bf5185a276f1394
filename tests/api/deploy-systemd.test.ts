import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { configWarnings, loadConfig } from '../../src/server/config.ts';

// docs/deployment.md, "Production: nginx, N processes, systemd": the shipped unit template as systemd
// itself reads it (systemd-analyze, without installing or starting it: this machine runs no systemd).
// What it cannot show here: the unit started by systemd as PID 1 (users, StateDirectory, the sandbox
// at run time); the nginx test runs the processes the unit would start.

const dir = mkdtempSync(join(tmpdir(), 'platform-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function systemdAnalyze(args: string[]) {
  const run = spawnSync('systemd-analyze', args, { cwd: dir, encoding: 'utf8' });
  if (run.error)
    throw new Error(
      `systemd-analyze is missing (${run.error.message}): it comes with Debian's systemd package, which this test needs`,
    );
  return run;
}

/** The template instantiated for port 8081, as `systemctl enable platform@8081` would. */
function instance(): string {
  copyFileSync('deploy/systemd/platform@.service', join(dir, 'platform@.service'));
  rmSync(join(dir, 'platform@8081.service'), { force: true });
  symlinkSync('platform@.service', join(dir, 'platform@8081.service'));
  return './platform@8081.service';
}

describe('deploy/systemd/platform@.service', () => {
  it('is a unit systemd accepts without a warning, sandboxed to an exposure of 2 or less', () => {
    const unit = instance();
    const verify = systemdAnalyze(['verify', unit]);
    expect(verify.status).toBe(0);
    // systemd ignores an unknown or misplaced setting with only a warning: none is allowed.
    expect(`${verify.stdout}${verify.stderr}`.trim()).toBe('');

    const security = systemdAnalyze(['security', '--offline=yes', '--no-pager', unit]);
    const level = /Overall exposure level for platform@8081\.service: (\d+\.\d+)/.exec(security.stdout);
    expect(level, security.stdout + security.stderr).not.toBeNull();
    expect(Number(level?.[1])).toBeLessThanOrEqual(2);
  });

  it('takes its port from the instance name, which the shipped environment file leaves alone', () => {
    const unit = readFileSync('deploy/systemd/platform@.service', 'utf8');
    expect(unit).toMatch(/^Environment=PORT=%i$/m);
    // systemd lets EnvironmentFile= override Environment=: a PORT there would put every instance on one port.
    const env = parseEnv(readFileSync('deploy/platform.env.example', 'utf8'));
    expect(env).not.toHaveProperty('PORT');
    expect(env).toMatchObject({ HOST: '127.0.0.1', TRUST_PROXY: '127.0.0.1' });
    expect(env.PUBLIC_URL).toMatch(/^https:\/\//);
  });

  it('passes the production checks once its blanks are filled in, and names the mail server it still needs', () => {
    const env = parseEnv(readFileSync('deploy/platform.env.example', 'utf8'));
    expect(env.NODE_ENV).toBe('production');
    expect(() => loadConfig(env)).toThrow(/^SMTP_URL must be set when NODE_ENV=production/m);
    const config = loadConfig({ ...env, SMTP_URL: 'smtp://127.0.0.1:25' });
    expect(configWarnings(config)).toEqual([]);
  });
});
