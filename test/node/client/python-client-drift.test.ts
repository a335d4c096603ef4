import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  generatePythonClientFiles,
  PYTHON_OPERATIONS_FILE,
  PYTHON_TYPES_FILE,
} from '../../../scripts/generate-python-client-types.ts';

describe('id-verify for Python generated modules', () => {
  it('match a fresh generation from the OpenAPI document (run `npm run generate:python-client` when not)', async () => {
    const fresh = await generatePythonClientFiles();
    assert.match(fresh.operations, /"createSession": Operation\("POST", "\/v1\/sessions", True\)/);
    assert.match(fresh.types, /^class Session\(/m);
    assert.ok(
      readFileSync(PYTHON_TYPES_FILE, 'utf8') === fresh.types,
      'clients/python/src/id_verify/_types.py differs from the OpenAPI document: run `npm run generate:python-client`',
    );
    assert.ok(
      readFileSync(PYTHON_OPERATIONS_FILE, 'utf8') === fresh.operations,
      'clients/python/src/id_verify/_operations.py differs from the OpenAPI document: run `npm run generate:python-client`',
    );
  });
});
