import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Secrets {
  masterKey: Uint8Array<ArrayBuffer>;
  jwtSecret: Uint8Array<ArrayBuffer>;
}

const FILE_NAME = 'secrets.json';

/**
 * Development mode only: keys come from `<dataDir>/secrets.json` (mode 0600), generated on first start,
 * so encrypted data stays readable across restarts without any setup. Production never reaches here.
 */
export async function loadOrCreateDevelopmentSecrets(dataDir: string): Promise<Secrets> {
  const path = join(dataDir, FILE_NAME);
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as { master_key: string; jwt_secret: string };
    return {
      masterKey: Uint8Array.from(Buffer.from(stored.master_key, 'base64')),
      jwtSecret: Uint8Array.from(Buffer.from(stored.jwt_secret, 'base64')),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets = {
    masterKey: Uint8Array.from(randomBytes(32)),
    jwtSecret: Uint8Array.from(randomBytes(32)),
  };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(
    path,
    JSON.stringify({
      master_key: Buffer.from(secrets.masterKey).toString('base64'),
      jwt_secret: Buffer.from(secrets.jwtSecret).toString('base64'),
    }),
    { mode: 0o600, flag: 'wx' },
  );
  await chmod(path, 0o600);
  return secrets;
}
