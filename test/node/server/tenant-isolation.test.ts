import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WebhookSender } from '../../../server/features/webhooks/webhook-sender.ts';
import { documentJpeg } from '../evidence/synthetic-images.ts';
import { EvidenceBook, goodEvidence } from '../review-pipeline/pipeline-support.ts';
import { createHarness, json, TEST_BASE_URL, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { documentForm, verifyCall } from '../verify/verify-support.ts';
import { workerFor } from '../webhooks/support/webhook-harness.ts';

/**
 * Every object with an id in the API × every operation of the OpenAPI document that takes that id in its
 * path × a credential that must not reach it (another tenant's, or the same tenant's other environment) →
 * 404, indistinguishable from an id that never existed, and nothing of the object in the body.
 * Operations are read from the served document, so a new operation with a path id joins the matrix on its
 * own, and one whose id is not mapped to an object type fails the suite.
 */

type ObjectType = 'session' | 'upload' | 'identity' | 'webhook' | 'delivery' | 'event' | 'user' | 'api_key';

/** Which object a path parameter names: by the path's resource and the parameter's name. */
function objectTypeOf(path: string, param: string): ObjectType | undefined {
  if (param === 'upload_id') return 'upload';
  if (param === 'delivery_id') return 'delivery';
  if (param === 'identity_id') return 'identity';
  if (param !== 'id') return undefined;
  const resource = /^\/v1\/(?:sandbox\/)?([a-z-]+)\//.exec(path)?.[1];
  const byResource: Record<string, ObjectType> = {
    sessions: 'session',
    identities: 'identity',
    webhooks: 'webhook',
    events: 'event',
    users: 'user',
    'api-keys': 'api_key',
  };
  return resource ? byResource[resource] : undefined;
}

/**
 * Objects that belong to the tenant but to no environment (console users and API keys are managed across
 * both): only the foreign tenant's credentials are probed for them.
 */
const TENANT_WIDE: ReadonlySet<ObjectType> = new Set(['user', 'api_key']);

/**
 * The calling user's own objects (`/v1/me/…`, such as a passkey): every lookup is keyed by the token's user,
 * so no other credential of any tenant names them; `test/node/api/second-factors.test.ts` probes another
 * member's and another tenant's token against a passkey id. They are left out of the matrix below.
 */
const SELF_SCOPED = /^\/v1\/me\//;

/**
 * A body that passes validation, so the answer shows the lookup and not the schema (a 400 would hide a
 * leak). An operation with a JSON body and a path id that is missing here fails the suite.
 */
const VALID_BODIES: Record<string, unknown> = {
  'PATCH /v1/users/{id}': { role: 'viewer' },
  'POST /v1/sessions/{id}/review': { decision: 'approve' },
  'PUT /v1/sessions/{id}/assignment': { user_id: 'usr_00000000000000000000000000' },
  'POST /v1/sandbox/sessions/{id}/simulate': { action: 'start' },
  'POST /v1/identities/{identity_id}/reverification-requests': { reason: 'isolation probe' },
  'PATCH /v1/webhooks/{id}': { description: 'isolation probe' },
  'POST /v1/webhooks/{id}/rotate-secret': { previous_secret_expires_in: 0 },
};

/** Ids of the same shape that never existed: the answer a foreign id must be indistinguishable from. */
const NEVER_EXISTED: Record<ObjectType, string> = {
  session: 'sess_00000000000000000000000000',
  upload: 'upl_00000000000000000000000000',
  identity: 'idn_00000000000000000000000000',
  webhook: 'whk_00000000000000000000000000',
  delivery: 'dlv_00000000000000000000000000',
  event: 'evt_00000000000000000000000000',
  user: 'usr_00000000000000000000000000',
  api_key: 'key_00000000000000000000000000',
};

interface Operation {
  method: string;
  path: string;
  params: string[];
  apiKey: boolean;
  console: boolean;
  jsonBody: boolean;
}

interface Credential {
  label: string;
  headers: Record<string, string>;
  /** Whether it is an API key (else a console token) and whether it is the same tenant. */
  kind: 'key' | 'token';
  sameTenant: boolean;
  /**
   * The caller's own session and webhook endpoint, for the operations with two ids: its own parent with the
   * foreign child must be a 404 too (a delivery or upload is scoped by more than its parent's id).
   */
  own?: Partial<Record<ObjectType, string>>;
}

/** Every string value of at least 8 characters in a JSON tree: what must not reach a foreign caller. */
function distinctiveValues(tree: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof tree === 'string' && tree.length >= 8) into.add(tree);
  else if (Array.isArray(tree)) for (const each of tree) distinctiveValues(each, into);
  else if (tree && typeof tree === 'object')
    for (const each of Object.values(tree)) distinctiveValues(each, into);
  return into;
}

/** The parts of a problem document that must not depend on whether the id exists elsewhere. */
function comparable(text: string): Record<string, unknown> {
  const problem = JSON.parse(text) as Record<string, unknown>;
  return {
    type: problem['type'],
    title: problem['title'],
    status: problem['status'],
    code: problem['code'],
    param: problem['param'],
  };
}

const fakeSender: WebhookSender = {
  send: async () => ({ kind: 'response', status: 204, retryAfter: null }),
  resolveHost: async () => ['93.184.216.34'],
};

for (const engine of testEngines()) {
  describe(`tenant isolation matrix (${engine})`, () => {
    let h: TestHarness;
    let operations: Operation[];
    const book = new EvidenceBook();
    /** The tenant's objects, all in its sandbox. */
    const ids = {} as Record<ObjectType, string>;
    /** What the owner sees of each object: the values a foreign caller must never see. */
    const secrets = {} as Record<ObjectType, Set<string>>;
    let credentials: Credential[];

    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
      h.deps.webhookSender = fakeSender;
      const key = h.tenant.sandboxKey;
      const adminToken = await h.login();
      const otherToken = await h.login(h.other);
      const marker = `isolation-marker-${Math.random().toString(36).slice(2, 10)}`;

      const document = await json(await h.call('GET', '/v1/openapi.json'));
      operations = Object.entries<Record<string, any>>(document['paths']).flatMap(([path, methods]) =>
        Object.entries<Record<string, any>>(methods).map(([method, operation]) => {
          const schemes = (operation['security'] ?? document['security'] ?? []).flatMap(
            (requirement: Record<string, unknown>) => Object.keys(requirement),
          );
          return {
            method: method.toUpperCase(),
            path,
            params: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
            apiKey: schemes.includes('ApiKey'),
            console: schemes.includes('ConsoleBearer'),
            jsonBody: Boolean(operation['requestBody']?.content?.['application/json']),
          };
        }),
      );

      const created = async (response: Response, what: string) => {
        const body = await json(response);
        assert.ok(
          response.status >= 200 && response.status < 300,
          `${what}: ${response.status} ${JSON.stringify(body)}`,
        );
        return body;
      };

      // An endpoint first, so the session's events fan out into deliveries.
      ids.webhook = (
        await created(
          await h.call('POST', '/v1/webhooks', {
            key,
            body: { url: 'https://hooks.tenant.example/idv', events: ['*'], description: marker },
          }),
          'webhook',
        )
      )['webhook_id'];

      // A session walked to approved by the sandbox, which vaults an identity and writes events.
      const session = await created(
        await h.call('POST', '/v1/sessions', {
          key,
          body: {
            country: 'DEU',
            flow: 'user',
            tier: 'tier2',
            external_user_reference: marker,
            metadata: { marker },
          },
        }),
        'session',
      );
      ids.session = session['session_id'];
      book.set(ids.session, goodEvidence(h));
      const token = String(session['verify_url']).split('/verify/')[1] as string;
      await created(
        await verifyCall(h, 'POST', '/v1/verify/consent', {
          token,
          body: { accepted: true, consent_version: 'v1' },
        }),
        'consent',
      );
      await created(
        await verifyCall(h, 'POST', '/v1/verify/documents', {
          token,
          form: documentForm(await documentJpeg({ seed: 1 })),
        }),
        'upload',
      );
      const evidence = await created(
        await h.call('GET', `/v1/sessions/${ids.session}/evidence`, { key }),
        'evidence list',
      );
      ids.upload = evidence['data'][0]['upload_id'] ?? evidence['data'][0]['id'];
      const approved = await created(
        await h.call('POST', `/v1/sandbox/sessions/${ids.session}/simulate`, {
          key,
          body: { action: 'approve' },
        }),
        'approve',
      );
      ids.identity = approved['identity_id'];
      await created(
        await h.call('POST', `/v1/identities/${ids.identity}/reverification-requests`, {
          key,
          body: { reason: marker },
        }),
        'reverification',
      );

      await workerFor(h, { sender: fakeSender }).runOnce();
      const deliveries = await created(
        await h.call('GET', `/v1/webhooks/${ids.webhook}/deliveries`, { key }),
        'deliveries',
      );
      ids.delivery = deliveries['data'][0]['delivery_id'] ?? deliveries['data'][0]['id'];
      const events = await created(
        await h.call('GET', `/v1/events?session_id=${ids.session}`, { key }),
        'events',
      );
      ids.event = events['data'][0]['event_id'] ?? events['data'][0]['id'];

      ids.user = (
        await created(
          await h.call('POST', '/v1/users', {
            token: adminToken,
            body: { email: `${marker}@tenant.idv.test`, role: 'reviewer' },
          }),
          'user',
        )
      )['user_id'];
      ids.api_key = (
        await created(
          await h.call('POST', '/v1/api-keys', {
            token: adminToken,
            body: { name: marker, environment: 'production' },
          }),
          'api key',
        )
      )['api_key_id'];
      for (const [type, id] of Object.entries(ids)) assert.ok(id, `${type} created`);

      // The owner's views of every object: each value of them is something a foreign answer must not hold.
      const views: Record<ObjectType, string> = {
        session: `/v1/sessions/${ids.session}`,
        upload: `/v1/sessions/${ids.session}/evidence`,
        identity: `/v1/identities/${ids.identity}`,
        webhook: `/v1/webhooks/${ids.webhook}`,
        delivery: `/v1/webhooks/${ids.webhook}/deliveries`,
        event: `/v1/events/${ids.event}`,
        user: `/v1/users/${ids.user}`,
        api_key: '/v1/api-keys',
      };
      for (const [type, path] of Object.entries(views) as [ObjectType, string][]) {
        const view = await created(
          await h.call('GET', path, TENANT_WIDE.has(type) ? { token: adminToken } : { key }),
          `view of ${type}`,
        );
        const values = distinctiveValues(view);
        values.add(marker);
        // The ids themselves may be echoed back from the request (they are the caller's input).
        for (const id of Object.values(ids)) values.delete(id);
        secrets[type] = values;
      }

      // The callers' own parents, for the two-id operations: the other tenant's sandbox, this tenant's production.
      const ownParents = async (apiKey: string, url: string) => ({
        session: (
          await created(
            await h.call('POST', '/v1/sessions', {
              key: apiKey,
              body: { country: 'DEU', flow: 'user', tier: 'tier2' },
            }),
            'own session',
          )
        )['session_id'] as string,
        webhook: (
          await created(
            await h.call('POST', '/v1/webhooks', { key: apiKey, body: { url, events: ['*'] } }),
            'own webhook',
          )
        )['webhook_id'] as string,
      });
      const otherSandbox = await ownParents(h.other.sandboxKey, 'https://hooks.other.example/idv');
      const ownProduction = await ownParents(h.tenant.productionKey, 'https://hooks.tenant.example/live');

      credentials = [
        {
          label: "other tenant's sandbox key",
          headers: { 'x-api-key': h.other.sandboxKey },
          kind: 'key',
          sameTenant: false,
          own: otherSandbox,
        },
        {
          label: "other tenant's production key",
          headers: { 'x-api-key': h.other.productionKey },
          kind: 'key',
          sameTenant: false,
        },
        {
          label: "other tenant's console token (sandbox)",
          headers: { authorization: `Bearer ${otherToken}`, 'x-environment': 'sandbox' },
          kind: 'token',
          sameTenant: false,
          own: otherSandbox,
        },
        {
          label: "same tenant's production key",
          headers: { 'x-api-key': h.tenant.productionKey },
          kind: 'key',
          sameTenant: true,
          own: ownProduction,
        },
        {
          label: "same tenant's console token (production)",
          headers: { authorization: `Bearer ${adminToken}`, 'x-environment': 'production' },
          kind: 'token',
          sameTenant: true,
          own: ownProduction,
        },
      ];
    });
    after(() => h.close());

    it('every path id of the OpenAPI document is mapped to an object type', () => {
      const unmapped = operations.flatMap((operation) =>
        SELF_SCOPED.test(operation.path)
          ? []
          : operation.params
              .filter((param) => !objectTypeOf(operation.path, param))
              .map((param) => `${operation.method} ${operation.path} {${param}}`),
      );
      assert.deepEqual(unmapped, [], 'map these path ids in objectTypeOf');
      const bodiless = operations.filter(
        (operation) =>
          operation.params.length > 0 &&
          !SELF_SCOPED.test(operation.path) &&
          operation.jsonBody &&
          !(`${operation.method} ${operation.path}` in VALID_BODIES),
      );
      assert.deepEqual(
        bodiless.map((operation) => `${operation.method} ${operation.path}`),
        [],
        'give these operations a valid body in VALID_BODIES',
      );
    });

    it("answers 404 for another tenant's or the other environment's objects, and shows nothing of them", async () => {
      const withIds = operations.filter(
        (operation) => operation.params.length > 0 && !SELF_SCOPED.test(operation.path),
      );
      assert.ok(withIds.length >= 20, `${withIds.length} operations take a path id`);
      const covered = new Set<ObjectType>();
      let cells = 0;
      let refusedBeforeLookup = 0;
      let mixedCells = 0;
      const failures: string[] = [];
      for (const operation of withIds) {
        const types = operation.params.map((param) => objectTypeOf(operation.path, param) as ObjectType);
        const tenantWide = types.some((type) => TENANT_WIDE.has(type));
        const key = `${operation.method} ${operation.path}`;
        const body = VALID_BODIES[key];
        const send = (path: string, headers: Record<string, string>) =>
          h.app.request(`${TEST_BASE_URL}${path}`, {
            method: operation.method,
            headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
        const fill = (source: Record<ObjectType, string>) =>
          operation.path.replace(
            /\{(\w+)\}/g,
            (_whole, param: string) => source[objectTypeOf(operation.path, param) as ObjectType],
          );
        for (const credential of credentials) {
          if (credential.kind === 'key' && !operation.apiKey) continue;
          if (credential.kind === 'token' && !operation.console) continue;
          if (credential.sameTenant && tenantWide) continue;
          const probe = async (own: Partial<Record<ObjectType, string>>, what: string) => {
            const probed = { ...ids, ...own };
            const foreignTypes = types.filter((type) => !(type in own));
            const foreign = await send(fill(probed), credential.headers);
            const text = await foreign.text();
            cells += 1;
            for (const type of foreignTypes) covered.add(type);
            const missing = await send(fill({ ...NEVER_EXISTED, ...own }), credential.headers);
            const missingText = await missing.text();
            const foreignProblem = comparable(text);
            const missingProblem = comparable(missingText);
            if (foreign.status !== 404) {
              // A sandbox-only operation refuses a production credential before any lookup, for every id:
              // the same answer as for an id that never existed, so it tells nothing about the object.
              const refusedForAnyId =
                foreignProblem.code === 'sandbox_only' &&
                JSON.stringify(foreignProblem) === JSON.stringify(missingProblem);
              if (refusedForAnyId) refusedBeforeLookup += 1;
              else failures.push(`${what}: ${foreign.status} ${text.slice(0, 200)}`);
              return;
            }
            // A value of the object in the answer is a leak unless the answer for a missing id holds it too
            // (words such as the object's type name).
            const leaked = foreignTypes.flatMap((type) =>
              [...secrets[type]].filter((value) => text.includes(value) && !missingText.includes(value)),
            );
            if (leaked.length > 0) failures.push(`${what}: body holds ${JSON.stringify(leaked)}`);
            // Indistinguishable from an id that never existed (the ids themselves aside, which are input).
            if (JSON.stringify(foreignProblem) !== JSON.stringify(missingProblem)) {
              failures.push(
                `${what}: differs from a missing id: ${JSON.stringify(foreignProblem)} vs ${JSON.stringify(missingProblem)}`,
              );
            }
            assert.equal(foreign.headers.get('content-type'), 'application/problem+json', what);
          };
          await probe({}, `${key} with ${credential.label}`);
          const parent = types.length > 1 ? (types[0] as ObjectType) : null;
          const ownParent = parent ? credential.own?.[parent] : undefined;
          if (parent && ownParent) {
            mixedCells += 1;
            await probe({ [parent]: ownParent }, `${key} with ${credential.label}, under its own ${parent}`);
          }
        }
      }
      console.log(
        `isolation cells checked (${engine}): ${cells} (${cells - refusedBeforeLookup} answered 404, ` +
          `${refusedBeforeLookup} refused as sandbox-only before any lookup, for every id alike; ` +
          `${mixedCells} of them a foreign child under the caller's own parent)`,
      );
      assert.deepEqual(failures, [], `${failures.length} of ${cells} cells failed`);
      assert.deepEqual(
        [...covered].sort(),
        (Object.keys(NEVER_EXISTED) as ObjectType[]).sort(),
        'every object type is probed',
      );
    });

    it('the owner still reaches every object afterwards: the probes changed nothing', async () => {
      const key = h.tenant.sandboxKey;
      for (const path of [
        `/v1/sessions/${ids.session}`,
        `/v1/sessions/${ids.session}/evidence/${ids.upload}`,
        `/v1/identities/${ids.identity}`,
        `/v1/webhooks/${ids.webhook}`,
        `/v1/events/${ids.event}`,
      ]) {
        const response = await h.call('GET', path, { key });
        assert.equal(response.status, 200, path);
      }
      const session = await json(await h.call('GET', `/v1/sessions/${ids.session}`, { key }));
      assert.equal(session['status'], 'approved', 'no foreign review or cancel took effect');
      const webhook = await json(await h.call('GET', `/v1/webhooks/${ids.webhook}`, { key }));
      assert.notEqual(webhook['description'], 'isolation probe', 'no foreign update took effect');
      const user = await json(await h.call('GET', `/v1/users/${ids.user}`, { token: await h.login() }));
      assert.equal(user['role'], 'reviewer', 'no foreign role change took effect');
    });
  });
}
