import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';

// The VAPID key pair identifies this server to the browsers' push services. It is made once, on the
// first start, into DATA_DIR (mode 0600) and reused after: a new pair would invalidate every stored
// subscription. Several instances on one DATABASE_URL must share DATA_DIR (docs/deployment.md), or each would make
// its own pair. The file is written under a temporary name and linked into place, which fails when it
// exists: the first instance to start wins, the others read its complete file.

export type VapidKeys = { publicKey: string; privateKey: string };

const FILE_NAME = 'vapid-keys.json';

function readKeys(path: string): VapidKeys {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<VapidKeys>;
  if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string')
    throw new Error(`${FILE_NAME} in DATA_DIR is not a VAPID key pair`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const path = join(dataDir, FILE_NAME);
  mkdirSync(dataDir, { recursive: true });
  const fresh = webpush.generateVAPIDKeys();
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(fresh)}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(temporary, path);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeys(path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
