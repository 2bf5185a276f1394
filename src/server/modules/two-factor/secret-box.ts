import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// TOTP secrets are stored encrypted (AES-256-GCM), so a copy of the database alone does not let anyone
// make codes. The key comes from TOTP_ENCRYPTION_KEY (base64, 32 bytes) or else from a key file made
// once into DATA_DIR (mode 0600), the way vapid-keys.ts makes its pair: written under a temporary name
// and linked into place, so the first of several instances sharing DATA_DIR wins and the others read it.
// Losing the key turns every stored secret into noise: keep it with the database's backups.

const FILE_NAME = 'totp-key';
const VERSION = 'v1';

export type SecretBox = {
  seal: (plain: string, owner: string) => string;
  open: (sealed: string, owner: string) => string;
};

function keyOf(base64: string, where: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${where} must be 32 bytes in base64 (openssl rand -base64 32)`);
  return key;
}

export function loadOrCreateTotpKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) return keyOf(fromEnv, 'TOTP_ENCRYPTION_KEY');
  const path = join(dataDir, FILE_NAME);
  mkdirSync(dataDir, { recursive: true });
  const fresh = randomBytes(32).toString('base64');
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${fresh}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(temporary, path);
    return keyOf(fresh, FILE_NAME);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return keyOf(readFileSync(path, 'utf8'), `${FILE_NAME} in DATA_DIR`);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Seals text for one owner: the owner's id is bound in as associated data, so a ciphertext copied onto
 * another person's row does not open.
 */
export function secretBox(key: Buffer): SecretBox {
  return {
    seal(plain, owner) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(owner));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, owner) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error('not a sealed TOTP secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
