import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateVapidKeys } from './vapid-keys.ts';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vapid-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadOrCreateVapidKeys', () => {
  it('makes a key pair on first start into DATA_DIR, readable by the owner only, and reuses it after', () => {
    const dir = freshDir();
    const first = loadOrCreateVapidKeys(dir);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    const file = join(dir, 'vapid-keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    expect(loadOrCreateVapidKeys(dir)).toEqual(first);
    expect(loadOrCreateVapidKeys(freshDir()).publicKey).not.toBe(first.publicKey);
  });

  it('creates DATA_DIR when missing, and refuses a file that is not a key pair', () => {
    const dir = join(freshDir(), 'nested', 'data');
    expect(loadOrCreateVapidKeys(dir).publicKey).toBeTruthy();
    const broken = freshDir();
    writeFileSync(join(broken, 'vapid-keys.json'), '{"publicKey": 1}');
    expect(() => loadOrCreateVapidKeys(broken)).toThrow(/not a VAPID key pair/);
  });
});
