import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';

/** Every `example` in the document with the schema it must satisfy, as JSON pointers for the messages. */
interface ExampleSite {
  pointer: string;
  schema: unknown;
  example: unknown;
}

function collectExamples(node: unknown, pointer: string, sites: ExampleSite[]): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) collectExamples(item, `${pointer}/${index}`, sites);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if ('example' in record) {
    // A Media Type or Parameter object holds its example beside `schema`; a Schema object is its own schema.
    const schema = record['schema'] ?? record;
    sites.push({ pointer: `${pointer}/example`, schema, example: record['example'] });
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'example') continue;
    collectExamples(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, sites);
  }
}

describe('OpenAPI document quality', () => {
  let h: TestHarness;
  let document: Record<string, any>;
  before(async () => {
    h = await createHarness('pglite');
    const response = await h.call('GET', '/v1/openapi.json');
    assert.equal(response.status, 200);
    document = await json(response);
  });
  after(() => h.close());

  it("lints clean under Redocly's recommended rules: no error, no warning", async () => {
    // No rule is switched off: the served document passes the whole `recommended` set.
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    const lines = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );
    assert.deepEqual(lines, []);
  });

  it('has every `example` valid against its own schema', () => {
    // OpenAPI 3.1 schemas are JSON Schema 2020-12. Not strict: OpenAPI's own keywords (`example`,
    // `discriminator`, …) sit inside schemas. `components` is carried along so `#/components/…` refs resolve.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const sites: ExampleSite[] = [];
    collectExamples(document['paths'], '#/paths', sites);
    collectExamples(document['components'], '#/components', sites);
    assert.ok(sites.length >= 20, `expected the document's examples, found only ${sites.length}`);
    // The checker itself rejects a wrong example, so an empty failure list means something.
    const probe: ExampleSite[] = [];
    collectExamples({ schema: { type: 'string', format: 'date-time' }, example: 'yesterday' }, '#', probe);
    assert.equal(probe.length, 1);
    assert.equal(ajv.validate(probe[0]!.schema as object, probe[0]!.example), false);
    const failures: string[] = [];
    for (const site of sites) {
      const validate = ajv.compile({ ...(site.schema as object), components: document['components'] });
      if (!validate(site.example)) {
        failures.push(`${site.pointer}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('emits the person-name pattern as a flagless pattern that real names match', () => {
    const patterns = JSON.stringify(document).match(/"pattern":"[^"]*\\\\p\{L[^"]*"/g) ?? [];
    assert.ok(patterns.length > 0, 'the name fields carry a pattern');
    for (const entry of patterns) {
      const pattern = JSON.parse(`{${entry}}`).pattern as string;
      assert.doesNotMatch(pattern, /\/[a-z]*$/, 'no JavaScript regex flag pasted onto the pattern');
      // JSON Schema patterns are read with Unicode semantics (what Ajv's `unicodeRegExp` does).
      const regex = new RegExp(pattern, 'u');
      for (const name of ['Anna', 'Zoë', "O'Brien", 'Jean-Luc', 'Łukasz', 'Nguyễn Văn An', 'Ærø']) {
        assert.match(name, regex, `${name} must match ${pattern}`);
      }
      assert.doesNotMatch('Robert<script>', regex);
    }
  });
});
