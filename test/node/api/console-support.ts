import assert from 'node:assert/strict';
import type { Role } from '../../../server/domain/capabilities.ts';
import { json, type TestHarness, type TestTenant } from '../support/test-app.ts';

export type Body = Record<string, any>;

/** Asserts a problem response's status and code and answers its body. */
export async function expectProblem(response: Response, status: number, code: string): Promise<Body> {
  const body = await json(response);
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status} ${JSON.stringify(body)}`,
  );
  assert.equal(body['code'], code);
  assert.match(response.headers.get('content-type') ?? '', /application\/problem\+json/);
  return body;
}

/** Asserts a success status and answers the JSON body. */
export async function expectOk(response: Response, status = 200): Promise<Body> {
  const body = await json(response);
  assert.equal(response.status, status, JSON.stringify(body));
  return body;
}

export interface ConsoleUser {
  userId: string;
  email: string;
  password: string;
  token: string;
}

let userCounter = 0;

/**
 * A console user of `role`, made the way the console makes one: the admin invites, the invitee accepts
 * with a password of their own, then logs in.
 */
export async function inviteAndLogIn(
  h: TestHarness,
  role: Role,
  adminToken: string,
  tenant: TestTenant = h.tenant,
): Promise<ConsoleUser> {
  userCounter += 1;
  const email = `${role}-${userCounter}-${Math.random().toString(36).slice(2, 8)}@staff.idv.test`;
  const password = `a long passphrase ${Math.random().toString(36).slice(2)}`;
  const invited = await expectOk(
    await h.call('POST', '/v1/users', { token: adminToken, body: { email, role } }),
    201,
  );
  await expectOk(
    await h.call('POST', '/v1/console/accept-invitation', {
      body: { invitation_token: invited['invitation_token'], password },
    }),
  );
  const token = await h.login({ ...tenant, email, password });
  return { userId: invited['user_id'], email, password, token };
}
