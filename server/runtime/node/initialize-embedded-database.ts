import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INIT_SCRIPT = fileURLToPath(new URL('./embedded-database-init.ts', import.meta.url));

/**
 * Makes sure `dir` holds an embedded database, creating and migrating one when it does not.
 *
 * PGlite grows its WebAssembly heap as it works and never gives the memory back. Its initdb peaks at about
 * 1.1 GB, and the first run of our migrations takes the heap to ~860 MB; opening a database that exists
 * takes ~330 MB. A server that created its own database would carry that peak for life, so creation and
 * the first migration run happen in a short-lived child process whose memory returns to the system when it
 * exits. (Later migrations, after an upgrade, run in the server: a few statements, not the whole schema.)
 *
 * It writes to a sibling directory that is renamed into place only when complete, so a crash during
 * initdb leaves no half-made database behind. The next start first renames such a leftover aside (one
 * atomic step: whatever may still be writing into it can no longer disturb the new attempt, which once
 * failed a restart with `ENOTEMPTY`) and then deletes it, with any older leftovers. The child dies with
 * its parent: it watches for us to be gone, however we died, and then kills itself
 * (embedded-database-init.ts), so a killed server leaves no initdb running.
 *
 * @example
 * await initializeEmbeddedDatabase('./.idv/pgdata');
 * const db = await PGlite.create('./.idv/pgdata'); // opens, does not initialise
 */
export async function initializeEmbeddedDatabase(dir: string): Promise<void> {
  // PG_VERSION is written by initdb; PostgreSQL itself uses it to recognise a data directory.
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const staging = join(dirname(dir), `${basename(dir)}.initializing`);
  await discardLeftovers(staging);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  await runInit(staging);
  // An empty `dir` may exist (created by an earlier version before initdb ran): make way for the rename.
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
}

/** Moves a crashed attempt's `staging` aside atomically, then deletes it and any older ones (best effort). */
async function discardLeftovers(staging: string): Promise<void> {
  const prefix = `${basename(staging)}.discarded-`;
  if (existsSync(staging)) {
    await rename(staging, `${staging}.discarded-${process.pid}-${Date.now()}`);
  }
  const parent = dirname(staging);
  for (const name of await readdir(parent)) {
    if (!name.startsWith(prefix)) continue;
    // A leftover that cannot be deleted yet (a file still open) only costs disk until a later start.
    await rm(join(parent, name), { recursive: true, force: true }).catch(() => {});
  }
}

function runInit(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Our pid lets the child notice when we are gone (a SIGKILL included, which no handler here could see).
    const child = spawn(process.execPath, [INIT_SCRIPT, dir, String(process.pid)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `creating the embedded database in ${dir} failed (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ''}`,
          ),
        );
    });
  });
}
