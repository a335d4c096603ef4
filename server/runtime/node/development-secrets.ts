import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Secrets {
  masterKey: Uint8Array<ArrayBuffer>;
  jwtSecret: Uint8Array<ArrayBuffer>;
}

const FILE_NAME = 'secrets.json';

async function readSecrets(path: string): Promise<Secrets | null> {
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as { master_key: string; jwt_secret: string };
    return {
      masterKey: Uint8Array.from(Buffer.from(stored.master_key, 'base64')),
      jwtSecret: Uint8Array.from(Buffer.from(stored.jwt_secret, 'base64')),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes `contents` to `path` only if nothing is there yet, all at once: the bytes go to a private temporary
 * file first, which is then hard-linked into place (atomic, and refused when the name exists). Another
 * process therefore sees either no file or a complete one. Returns false when another writer won.
 */
export async function createFileOnce(path: string, contents: string): Promise<boolean> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, contents, { mode: 0o600, flag: 'wx' });
  await chmod(temporary, 0o600);
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

/**
 * Development mode only: keys come from `<dataDir>/secrets.json` (mode 0600), generated on first start,
 * so encrypted data stays readable across restarts without any setup. Two instances started together on
 * one data directory agree on the keys: the first to create the file wins and the other reads it.
 * Production never reaches here.
 */
export async function loadOrCreateDevelopmentSecrets(dataDir: string): Promise<Secrets> {
  const path = join(dataDir, FILE_NAME);
  const existing = await readSecrets(path);
  if (existing) return existing;
  const secrets = {
    masterKey: Uint8Array.from(randomBytes(32)),
    jwtSecret: Uint8Array.from(randomBytes(32)),
  };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const contents = JSON.stringify({
    master_key: Buffer.from(secrets.masterKey).toString('base64'),
    jwt_secret: Buffer.from(secrets.jwtSecret).toString('base64'),
  });
  if (await createFileOnce(path, contents)) return secrets;
  const winner = await readSecrets(path);
  if (!winner) throw new Error(`${path} vanished while starting`);
  return winner;
}
