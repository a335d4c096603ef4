// The OpenAPI document's `webhooks` section against the events the server really writes: every event
// kind has an entry, and each payload the outbox stores (exactly what deliveries carry) validates against
// its entry's schema and has the documented members, no more and no fewer. The generated types of
// @id-verify/node come from that section, so a payload change the document misses fails here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { WEBHOOK_EVENT_KINDS } from '../../../server/features/webhooks/event-kinds.ts';
import {
  completeAndSubmit,
  createSession,
  EvidenceBook,
  goodEvidence,
  result,
  simulate,
  worker,
} from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';

type Schema = { $ref?: string; properties?: Record<string, unknown>; required?: string[] };

describe('webhook payloads as the OpenAPI document describes them', () => {
  let h: TestHarness;
  let document: Record<string, any>;
  const book = new EvidenceBook();
  const key = () => h.tenant.sandboxKey;

  before(async () => {
    h = await createHarness('pglite', { collectReviewEvidence: book.collector });
    document = await json(await h.call('GET', '/v1/openapi.json'));
  });
  after(() => h.close());

  /** The body schema a kind's entry documents, its `$ref` followed once. */
  function bodySchemaOf(kind: string): Schema {
    const schema = document['webhooks']?.[kind]?.post?.requestBody?.content?.['application/json']?.schema as
      | Schema
      | undefined;
    assert.ok(schema, `no webhooks.${kind} in the document`);
    const name = schema.$ref?.replace('#/components/schemas/', '');
    return name ? (document['components'].schemas[name] as Schema) : schema;
  }

  it('documents every event kind an endpoint can subscribe to, and nothing else', () => {
    assert.deepEqual(Object.keys(document['webhooks'] ?? {}).sort(), [...WEBHOOK_EVENT_KINDS].sort());
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const event = bodySchemaOf(kind).properties?.['event'] as { enum?: string[]; const?: string };
      assert.ok(event.const === kind || event.enum?.includes(kind), `${kind}: its schema's event admits it`);
    }
  });

  it('matches the payloads the server writes for sessions, identities, re-verification and tests', async () => {
    // An approved session (created, collecting, processing, approved; identity.created), a second approved
    // session for the same user (identity.updated), a re-verification cancelled (session.cancelled,
    // reverification.completed), an expired session and a webhook test.
    async function approved(reference: string): Promise<string> {
      const session = await createSession(h, key(), { tier: 'tier1', external_user_reference: reference });
      const evidence = goodEvidence(h);
      delete evidence.liveness;
      book.set(session['session_id'], evidence);
      await simulate(h, key(), session['session_id'], 'start');
      await completeAndSubmit(h, key(), session['session_id']);
      await worker(h).runOnce();
      return (await result(h, key(), session['session_id']))['identity_id'];
    }
    const identityId = await approved('payload-docs');
    assert.equal(await approved('payload-docs'), identityId);
    const reverification = await h.call('POST', `/v1/identities/${identityId}/reverification-requests`, {
      key: key(),
      body: { reason: 'Payload documentation' },
    });
    assert.equal(reverification.status, 201, await reverification.clone().text());
    const cancelled = await h.call('DELETE', `/v1/sessions/${(await json(reverification))['session_id']}`, {
      key: key(),
    });
    assert.equal(cancelled.status, 200);
    const expiring = await createSession(h, key(), { external_user_reference: 'payload-docs-expired' });
    await simulate(h, key(), expiring['session_id'], 'expire');
    const webhook = await json(
      await h.call('POST', '/v1/webhooks', {
        key: key(),
        body: { url: 'http://127.0.0.1:9/never-listening', events: ['*'] },
      }),
    );
    assert.equal(
      (await h.call('POST', `/v1/webhooks/${webhook['webhook_id']}/test`, { key: key() })).status,
      200,
    );

    const rows = await h.deps.db.query<{ type: string; payload: Record<string, unknown> }>(
      'select type, payload from events order by created_at',
    );
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.type);
      assert.equal(row.payload['event'], row.type);
      const schema = bodySchemaOf(row.type);
      if (!ajv.validate(schema, row.payload)) failures.push(`${row.type}: ${ajv.errorsText(ajv.errors)}`);
      // Members the document lists are what the payload has: an undocumented one (or a documented one
      // the server dropped) would leave the generated union wrong.
      assert.deepEqual(
        Object.keys(row.payload).sort(),
        Object.keys(schema.properties ?? {}).sort(),
        row.type,
      );
      assert.deepEqual([...(schema.required ?? [])].sort(), Object.keys(schema.properties ?? {}).sort());
    }
    assert.deepEqual(failures, []);
    for (const kind of [
      'session.created',
      'session.collecting',
      'session.processing',
      'session.approved',
      'session.cancelled',
      'session.expired',
      'identity.created',
      'identity.updated',
      'reverification.completed',
      'webhook.test',
    ])
      assert.ok(seen.has(kind), `the scenario wrote no ${kind}: ${[...seen].join(', ')}`);
  });
});
