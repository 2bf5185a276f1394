import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { sleep, stopChild } from './server-process.ts';

// A real nginx (Debian's package) running a site file from deploy/nginx as shipped, for the tests
// of the production set-up (docs/deployment.md). Only what must differ in a test is replaced.

export type Nginx = {
  /** Everything nginx wrote to its error log and its standard error. */
  output: () => string;
  /** The access log: one line per request, `$request $status $upstream_addr`. */
  accessLog: () => string;
  stop: () => Promise<void>;
};

/** nginx's path; a clear failure where it is missing (the tests need the real one). */
export function findNginx(): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  const found = dirs.map((dir) => join(dir, 'nginx')).find((path) => existsSync(path));
  if (!found)
    throw new Error(
      'nginx is not installed: this test runs the shipped deploy/nginx/platform.conf in a real nginx. ' +
        'On Debian: apt-get install -y nginx (.ci/run installs it; see docs/testing.md).',
    );
  return found;
}

/**
 * The shipped file with each [from, to] applied. Every `from` must occur exactly once, so a change in
 * the shipped file shows up as a failing test here rather than as a test of something else.
 */
export function renderSite(text: string, replacements: [from: string, to: string][]): string {
  let out = text;
  for (const [from, to] of replacements) {
    const count = out.split(from).length - 1;
    if (count !== 1)
      throw new Error(`deploy/nginx: expected "${from}" once in the shipped site, found it ${count} times`);
    out = out.replace(from, to);
  }
  return out;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts nginx in the foreground on `site` (an http-context file) inside `prefix`, with the http block
 * of Debian's own nginx.conf around it, and waits until `port` accepts connections.
 */
export async function startNginx(site: string, prefix: string, port: number): Promise<Nginx> {
  const binary = findNginx();
  const version = execFileSync(binary, ['-V'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const confDir = dirname(/--conf-path=(\S+)/.exec(version)?.[1] ?? '/etc/nginx/nginx.conf');
  for (const dir of ['client-body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, dir));
  writeFileSync(join(prefix, 'platform.conf'), site);
  const errorLog = join(prefix, 'error.log');
  const accessLog = join(prefix, 'access.log');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root root;' : ''}
daemon off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${errorLog} warn;
events { worker_connections 256; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  include ${join(confDir, 'mime.types')};
  default_type application/octet-stream;
  gzip on;
  client_body_temp_path ${join(prefix, 'client-body')};
  proxy_temp_path ${join(prefix, 'proxy')};
  fastcgi_temp_path ${join(prefix, 'fastcgi')};
  uwsgi_temp_path ${join(prefix, 'uwsgi')};
  scgi_temp_path ${join(prefix, 'scgi')};
  log_format upstreams '"$request" $status $upstream_addr';
  access_log ${accessLog} upstreams;
  include ${join(prefix, 'platform.conf')};
}
`,
  );
  const child: ChildProcess = spawn(
    binary,
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', errorLog],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stderr += String(d);
  });
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const output = () => `${stderr}${read(errorLog)}`;
  // SIGTERM, nginx's fast stop: a graceful one (SIGQUIT) would wait for open event streams to end.
  const stop = () => stopChild(child);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${output()}`);
    if (await portOpen(port)) return { output, accessLog: () => read(accessLog), stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`nginx did not start: ${output()}`);
}
