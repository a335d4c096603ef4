import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../../scripts/generate-client-types.ts';

describe('@id-verify/node generated types', () => {
  it('match a fresh generation from the OpenAPI document (run `npm run generate:client` when not)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const fresh = await generateClientTypes();
    assert.ok(fresh.includes("'/v1/sessions'"), 'the generation produced the API paths');
    assert.ok(
      committed === fresh,
      'server/client/src/openapi-types.ts differs from the OpenAPI document: run `npm run generate:client`',
    );
  });
});
