import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import SQLite from '../../src/server/db/sqlite.ts';
import { fetchBytes, solidImage, uploadFile } from '../fixtures/images.ts';
import { ApiClient, fundedMember } from '../helpers/client.ts';
import { TEST_DATABASE_URL } from '../helpers/postgres.ts';
import {
  adminOn,
  projectDialect,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server-process.ts';

// Issue 20 "Back up and restore": `npm run backup` copies the embedded SQLite database while the
// server runs (SQLite's online backup API) with DATA_DIR's uploads and keys; `npm run restore` puts it
// into a fresh DATA_DIR; a server started there has books that reconcile, holds no transfer the first
// server did not answer 201, signs members in, serves their uploads and keeps the same push and
// two-factor keys. The commands are SQLite's: on PostgreSQL the database is pg_dump's job (a dump the
// database server makes itself, consistent by its own snapshot), so there the commands must refuse and
// point to pg_dump / pg_restore. Members in this file: 6 (SQLite project).

type Cli = { code: number | null; stdout: string; stderr: string };

/** Runs a CLI of src/server/cli as the operator would (npm run backup/restore run the same file with tsx). */
const runCli = (
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string> = {},
  onOutput: (stdout: string) => void = () => {},
) =>
  new Promise<Cli>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `src/server/cli/${name}.ts`, ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
      onOutput(stdout);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), `platform-${prefix}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describe('npm run backup and npm run restore', () => {
  // One test per project, chosen here rather than skipped: each project has something to show.
  if (projectDialect === 'postgres')
    it('refuse with DATABASE_URL set and name pg_dump / pg_restore, writing nothing', async () => {
      const dir = tempDir('backup-pg');
      const env = { DATABASE_URL: TEST_DATABASE_URL, DATA_DIR: join(dir, 'data') };
      const backup = await runCli('backup', ['--out', join(dir, 'out')], env);
      expect(backup.code).toBe(1);
      expect(backup.stderr).toContain('pg_dump -Fc');
      expect(existsSync(join(dir, 'out'))).toBe(false);
      const restore = await runCli(
        'restore',
        ['--from', join(dir, 'out'), '--data-dir', join(dir, 'fresh')],
        env,
      );
      expect(restore.code).toBe(1);
      expect(restore.stderr).toContain('pg_restore --clean --if-exists');
      expect(existsSync(join(dir, 'fresh'))).toBe(false);
    });
  else
    it('back up under a transfer load and restore into a fresh DATA_DIR: books reconcile, only answered transfers, sign-ins, uploads and the same keys', async () => {
      const dir = tempDir('backup');
      const liveDir = join(dir, 'live');
      const out = join(dir, 'backup-1');
      const restoredDir = join(dir, 'restored');

      const first: ServerProcess = await startServerProcess({ DATABASE_URL: '' }, liveDir);
      cleanups.push(first.stop);
      const admin = await adminOn(first.url);
      const members = await Promise.all(
        Array.from({ length: 6 }, () => fundedMember(first.url, admin, { business: '1000.00' })),
      );

      // An upload that lands in DATA_DIR/uploads: a ticket's image.
      const owner = members[0];
      if (!owner) throw new Error('no member');
      const uploaded = await uploadFile(owner.client, '/tickets/images', {
        bytes: await solidImage('png', 120, 80),
        filename: 'screen.png',
        contentType: 'image/png',
      });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      const imageUrl: string = uploaded.body.image.url;
      const ticket = await owner.client.post('/tickets', {
        subject: 'Before the backup',
        category: 'technical',
        message: 'With a picture.',
        image: uploaded.body.image.name,
      });
      expect(ticket.status, ticket.text).toBe(201);
      const imageBefore = await fetchBytes(owner.client, imageUrl);
      expect(imageBefore.status).toBe(200);

      // The load: workers sending small transfers round the members until told to stop.
      const answered = new Set<string>();
      let backupStarted = false;
      let backupDone = false;
      const answeredBeforeBackup = new Set<string>();
      // Transfers the server was working on while the backup ran: sent before it ended, answered after
      // it began (a small database's copy can end before the next answer on a busy machine, so not only
      // those both sent and answered inside it).
      let writtenDuringBackup = 0;
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const from = members[(w + i) % members.length];
          const to = members[(w + i + 1 + (i % (members.length - 1))) % members.length];
          if (!from || !to || from === to) continue;
          const sentBeforeBackupEnded = !backupDone;
          const res = await from.client.post('/transfer/touser', {
            userto_id: to.auth.id,
            amount: `${1 + ((w + i) % 9)}.${String(i % 100).padStart(2, '0')}`,
            from: 'business',
            to: 'business',
          });
          if (res.status !== 201) continue;
          answered.add(res.body.transfer.id);
          if (!backupStarted) answeredBeforeBackup.add(res.body.transfer.id);
          else if (sentBeforeBackupEnded) writtenDuringBackup += 1;
        }
      };
      const load = Promise.all(Array.from({ length: 4 }, (_, w) => worker(w)));
      while (answered.size < 40) await new Promise((resolve) => setTimeout(resolve, 20));

      // The CLI says "Backing up" before its copy starts: every transfer answered before the test reads
      // that line was committed before the snapshot, so the backup must hold it (a copy of the file
      // alone, without the write-ahead log, would lose the newest of them).
      const backup = await runCli('backup', ['--data-dir', liveDir, '--out', out], {}, (stdout) => {
        if (stdout.includes('Backing up')) backupStarted = true;
      });
      backupDone = true;
      // A few more after it, so the live database has moved on past the snapshot.
      const afterBackup = answered.size;
      while (answered.size < afterBackup + 20) await new Promise((resolve) => setTimeout(resolve, 20));
      stop = true;
      await load;

      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`Backed up ${liveDir} into ${out}`);
      // The backup ran under load: the server was writing transfers while it copied.
      expect(writtenDuringBackup).toBeGreaterThan(0);
      const backedUp = readdirSync(out, { recursive: true }).map(String).sort();
      expect(backedUp).toContain('platform.sqlite');
      expect(backedUp).toContain('vapid-keys.json');
      expect(backedUp).toContain('totp-key');
      expect(backedUp).toContain(`uploads/${uploaded.body.image.name}`);
      expect(backedUp.filter((name) => /-wal$|-shm$|\.tmp$/.test(name))).toEqual([]);

      // Refusals: the output exists; DATA_DIR without a database.
      // (Run side by side: each is a process start-up, and none writes where another reads.)
      const [again, empty] = await Promise.all([
        runCli('backup', ['--data-dir', liveDir, '--out', out]),
        runCli('backup', ['--data-dir', join(dir, 'nothing'), '--out', join(dir, 'backup-2')]),
      ]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('exists already');
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('holds no database');
      expect(existsSync(join(dir, 'backup-2'))).toBe(false);

      const restored = await runCli('restore', ['--from', out, '--data-dir', restoredDir]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain('integrity_check ok');

      const second = await startServerProcess({ DATABASE_URL: '' }, restoredDir);
      cleanups.push(second.stop);
      const admin2 = await adminOn(second.url);

      const reconciliation = await admin2.get('/ledger/reconciliation');
      expect(reconciliation.status).toBe(200);
      expect(reconciliation.body).toMatchObject({ balanced: true, ledger_sum: '0.00', mismatches: [] });

      // No money invented, none answered before the backup lost.
      const handle = new SQLite(join(restoredDir, 'platform.sqlite'), {
        readonly: true,
        fileMustExist: true,
      });
      const restoredIds = handle
        .prepare("select id from ledger_transfers where kind = 'transfer'")
        .all()
        .map((row) => (row as { id: string }).id);
      const { rows } = handle.prepare('select count(*) as rows from ledger_transfers').get() as {
        rows: number;
      };
      handle.close();
      // The manifest tells the operator what the backup holds, and tells it right.
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
      expect(manifest.database).toMatchObject({ ledger_sum_cents: 0, counts: { ledger_transfers: rows } });
      expect(restoredIds.filter((id) => !answered.has(id))).toEqual([]);
      expect([...answeredBeforeBackup].filter((id) => !restoredIds.includes(id))).toEqual([]);
      expect(restoredIds.length).toBeLessThan(answered.size);

      // Members sign in with their passwords; the uploaded image is served, byte for byte.
      for (const { member } of members) {
        const res = await new ApiClient(second.url).post('/auth/signin', {
          email: member.email,
          password: member.password,
        });
        expect(res.status, res.text).toBe(200);
      }
      const ownerAgain = new ApiClient(second.url);
      await ownerAgain.signIn(owner.member);
      const imageAfter = await fetchBytes(ownerAgain, imageUrl);
      expect(imageAfter.status).toBe(200);
      expect(imageAfter.bytes.equals(imageBefore.bytes)).toBe(true);

      // The same keys: push subscriptions and two-factor secrets keep working.
      for (const key of ['vapid-keys.json', 'totp-key'])
        expect(readFileSync(join(restoredDir, key)).equals(readFileSync(join(liveDir, key))), key).toBe(true);
      const pushKey = async (url: string) => (await new ApiClient(url).get('/push/key')).body;
      expect(await pushKey(second.url)).toEqual(await pushKey(first.url));

      // Refusals: a non-empty DATA_DIR without --force; with --force, a DATA_DIR a server holds; a
      // tampered backup, whose checksum error names the file, with nothing landing in DATA_DIR.
      const tampered = join(dir, 'tampered');
      cpSync(out, tampered, { recursive: true });
      const imagePath = join(tampered, 'uploads', uploaded.body.image.name);
      const bytes = readFileSync(imagePath);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
      writeFileSync(imagePath, bytes);
      const [over, forced, refused] = await Promise.all([
        runCli('restore', ['--from', out, '--data-dir', restoredDir]),
        runCli('restore', ['--from', out, '--data-dir', restoredDir, '--force']),
        runCli('restore', ['--from', tampered, '--data-dir', join(dir, 'fresh')]),
      ]);
      expect(over.code).toBe(1);
      expect(over.stderr).toContain('is not empty');
      expect(forced.code).toBe(1);
      expect(forced.stderr).toContain('running server');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`checksum error: uploads/${uploaded.body.image.name}`);
      expect(existsSync(join(dir, 'fresh', 'platform.sqlite'))).toBe(false);
    }, 90_000);
});
