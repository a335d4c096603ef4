import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reviewInputOf } from '../../../server/features/review/review-input-of-session.ts';
import { findSession, type SessionRow } from '../../../server/store/sessions.ts';
import { findTenant, type TenantRow } from '../../../server/store/tenants.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

for (const engine of testEngines()) {
  describe(`tenant review policy: document authenticity and proof-of-address age (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    before(async () => {
      h = await createHarness(engine);
      admin = await h.login();
    });
    after(() => h.close());

    it('defaults to offline checks and 92 days, and round-trips a change through PATCH and GET', async () => {
      const initial = await json(await h.call('GET', '/v1/tenant', { key: h.tenant.sandboxKey }));
      assert.equal(initial['document_authenticity'], 'offline_checks');
      assert.equal(initial['proof_of_address_max_age_days'], 92);

      const patched = await h.call('PATCH', '/v1/tenant', {
        token: admin,
        body: { document_authenticity: 'manual_review', proof_of_address_max_age_days: 30 },
      });
      assert.equal(patched.status, 200);
      const body = await json(patched);
      assert.equal(body['document_authenticity'], 'manual_review');
      assert.equal(body['proof_of_address_max_age_days'], 30);
      assert.equal(body['minimum_age'], initial['minimum_age'], 'other settings untouched');

      const renamed = await json(
        await h.call('PATCH', '/v1/tenant', { token: admin, body: { name: 'Tenant A renamed' } }),
      );
      assert.equal(renamed['document_authenticity'], 'manual_review', 'a PATCH without it keeps it');
      const read = await json(await h.call('GET', '/v1/tenant', { key: h.tenant.productionKey }));
      assert.equal(read['document_authenticity'], 'manual_review');
      assert.equal(read['proof_of_address_max_age_days'], 30);
      const other = await json(await h.call('GET', '/v1/tenant', { key: h.other.sandboxKey }));
      assert.equal(other['document_authenticity'], 'offline_checks', 'another tenant keeps its own');
    });

    it('refuses values outside the policy with invalid_parameter', async () => {
      for (const body of [
        { document_authenticity: 'forensics' },
        { proof_of_address_max_age_days: 0 },
        { proof_of_address_max_age_days: 400 },
        { proof_of_address_max_age_days: 30.5 },
      ]) {
        const response = await h.call('PATCH', '/v1/tenant', { token: admin, body });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal((await json(response))['code'], 'invalid_parameter');
      }
    });

    it('passes the policy into the review input', async () => {
      await h.call('PATCH', '/v1/tenant', {
        token: admin,
        body: { document_authenticity: 'manual_review', proof_of_address_max_age_days: 45 },
      });
      const created = await json(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          body: { country: 'DEU', flow: 'user', tier: 'tier3' },
        }),
      );
      const session = (await findSession(
        h.deps.db,
        { tenantId: h.tenant.tenantId, environment: 'sandbox' },
        created['session_id'],
      )) as SessionRow;
      const tenant = (await findTenant(h.deps.db, h.tenant.tenantId)) as TenantRow;
      assert.deepEqual(reviewInputOf(session, tenant, {}, h.clock.now()).policy, {
        minimum_age: 18,
        document_authenticity: 'manual_review',
        proof_of_address_max_age_days: 45,
      });
    });

    it('documents the settings and the document_type_mismatch problem in the OpenAPI reference', async () => {
      const document = await json(await h.call('GET', '/v1/openapi.json'));
      const tenant = document['components']['schemas']['Tenant']['properties'];
      assert.deepEqual(tenant['document_authenticity']['enum'], ['offline_checks', 'manual_review']);
      assert.equal(tenant['proof_of_address_max_age_days']['type'], 'integer');
      const update = document['components']['schemas']['UpdateTenantRequest']['properties'];
      assert.equal(update['proof_of_address_max_age_days']['maximum'], 366);
      const upload = document['paths']['/v1/verify/documents']['post'];
      assert.match(upload['responses']['422']['description'], /document_type_mismatch/);
      assert.ok(upload['responses']['201']);
      const view = document['paths']['/v1/verify/session']['get']['responses']['200'];
      assert.match(JSON.stringify(view), /VerifySessionView/);
      assert.ok(document['components']['schemas']['VerifyPrefill']);
      const page = await h.call('GET', '/docs/problems/document_type_mismatch');
      assert.equal(page.status, 200);
      assert.match(await page.text(), /HTTP 422: The photo is not of the document type chosen/);
    });
  });
}
