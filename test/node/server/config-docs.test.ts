// docs/configuration.md is generated from the zod schemas the server reads its environment with: the
// committed file must be what a fresh generation writes, every variable must say what it does, and no
// schema in server/runtime/node/ may be left out of the list the reference is generated from.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  CONFIG_DOCS_FILE,
  describeVariables,
  renderConfigurationDocs,
} from '../../../scripts/generate-config-docs.ts';
import {
  ENVIRONMENT_SCHEMAS,
  knownEnvironmentVariables,
} from '../../../server/runtime/node/environment-schemas.ts';

const NODE_DIR = new URL('../../../server/runtime/node/', import.meta.url);

describe('docs/configuration.md', () => {
  it('is what `npm run generate:config-docs` writes from the schemas today', () => {
    assert.equal(
      readFileSync(CONFIG_DOCS_FILE, 'utf8'),
      renderConfigurationDocs(),
      'docs/configuration.md is stale: run `npm run generate:config-docs` and commit the result',
    );
  });

  it('describes every variable', () => {
    for (const { source, schema } of ENVIRONMENT_SCHEMAS) {
      for (const variable of describeVariables(schema)) {
        assert.ok(variable.description.length > 10, `${variable.name} (${source}) has no description`);
      }
    }
  });

  it('lists every variable a schema in server/runtime/node/ declares', () => {
    // A schema key is a line `  NAME: z…` (or `NAME: onOff(…)`): the shape of every env schema here.
    const declared = readdirSync(NODE_DIR)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(new URL(file, NODE_DIR), 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map(
          (match) => match[1] as string,
        ),
      );
    assert.ok(declared.includes('IDV_BLOB_STORE') && declared.includes('PORT'), 'the scan found no schema');
    const known = knownEnvironmentVariables();
    assert.deepEqual(
      declared.filter((name) => !known.has(name)),
      [],
      'add the schema to server/runtime/node/environment-schemas.ts',
    );
  });

  it('derives defaults and allowed values from the schemas', () => {
    const rows = Object.fromEntries(
      ENVIRONMENT_SCHEMAS.flatMap(({ schema }) => describeVariables(schema)).map((row) => [row.name, row]),
    );
    assert.equal(rows['IDV_VISION_THREADS']?.default, '`1`');
    assert.equal(rows['IDV_VISION_THREADS']?.allowed, 'integer 1 to 16');
    assert.equal(rows['IDV_BLOB_STORE']?.allowed, '`file`, `postgres`, `s3`');
    assert.equal(rows['IDV_LOG_LEVEL']?.default, '`info`');
  });
});
