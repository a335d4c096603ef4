import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { EMBEDDED_DATABASE_OPTIONS } from '../../../server/runtime/node/embedded-database-settings.ts';
import { initializeEmbeddedDatabase } from '../../../server/runtime/node/initialize-embedded-database.ts';
import { migrationsComplete } from '../../../server/store/migrate.ts';
import { pgliteDatabase } from '../../../server/store/pglite-database.ts';

describe('initializeEmbeddedDatabase', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'idv-embedded-'));
    dirs.push(dir);
    return dir;
  };

  it('creates and migrates the database in a child process, replacing what a crashed attempt left', async () => {
    const dir = await dataDir();
    const pgdata = join(dir, 'pgdata');
    // What a crash during an earlier initdb leaves: a half-written staging directory, and an empty pgdata.
    await mkdir(join(dir, 'pgdata.initializing'), { recursive: true });
    await writeFile(join(dir, 'pgdata.initializing', 'half-written'), 'x');
    await mkdir(pgdata);
    await initializeEmbeddedDatabase(pgdata);
    assert.ok(existsSync(join(pgdata, 'PG_VERSION')));
    assert.equal(existsSync(join(dir, 'pgdata.initializing')), false);

    const pglite = await PGlite.create(pgdata, EMBEDDED_DATABASE_OPTIONS);
    try {
      assert.equal(await migrationsComplete(pgliteDatabase(pglite)), true);
      const { rows } = await pglite.query<{ shared_buffers: string }>('show shared_buffers');
      assert.equal(rows[0]?.shared_buffers, '32MB');
      // Marks the database, for the next test to see it untouched.
      await pglite.exec('create table kept (id int); insert into kept values (1)');
    } finally {
      await pglite.close();
    }

    await initializeEmbeddedDatabase(pgdata); // a database is there: nothing to do
    const reopened = await PGlite.create(pgdata, EMBEDDED_DATABASE_OPTIONS);
    try {
      const { rows } = await reopened.query<{ id: number }>('select id from kept');
      assert.deepEqual(rows, [{ id: 1 }]);
    } finally {
      await reopened.close();
    }
  });
});
