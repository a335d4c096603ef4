import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  CLIENT_TYPES_FILE,
  generateClientTypes,
  generateWidgetTypes,
  WIDGET_TYPES_FILE,
} from '../../../scripts/generate-client-types.ts';

describe('generated OpenAPI types', () => {
  it('match a fresh generation from the OpenAPI document (run `npm run generate:client` when not)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const fresh = await generateClientTypes();
    assert.ok(fresh.includes("'/v1/sessions'"), 'the generation produced the API paths');
    assert.ok(
      committed === fresh,
      'server/client/src/openapi-types.ts differs from the OpenAPI document: run `npm run generate:client`',
    );
  });

  it("the widget's (src/api/openapi-types.ts) match too, and hold the end-user paths only", async () => {
    const committed = readFileSync(WIDGET_TYPES_FILE, 'utf8');
    const fresh = await generateWidgetTypes();
    assert.ok(fresh.includes("'/v1/verify/session'"), 'the generation produced the end-user paths');
    assert.ok(!fresh.includes("'/v1/sessions'"), 'and no tenant path');
    assert.ok(
      committed === fresh,
      'src/api/openapi-types.ts differs from the OpenAPI document: run `npm run generate:client`',
    );
  });
});
