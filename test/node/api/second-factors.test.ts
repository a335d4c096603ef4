import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  fromBase32,
  generateTotpSecret,
  totpCode,
  totpStepAt,
} from '../../../server/features/second-factors/totp.ts';
import { createRetentionSweeper } from '../../../server/workers/retention-sweeper.ts';
import { createHarness, json, TEST_BASE_URL, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { SoftwareAuthenticator } from '../support/software-authenticator.ts';
import { type Body, expectOk, expectProblem, inviteAndLogIn } from './console-support.ts';

const STEP_MS = 30_000;

describe('TOTP (RFC 6238 Appendix B test vectors, SHA-1)', () => {
  // The RFC's SHA-1 seed is the ASCII "12345678901234567890"; its table gives 8-digit codes.
  const secret = new Uint8Array(Buffer.from('12345678901234567890'));
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  for (const [seconds, expected] of vectors) {
    it(`T = ${seconds}s gives ${expected}`, async () => {
      assert.equal(await totpCode(secret, totpStepAt(new Date(seconds * 1000)), 8), expected);
    });
  }
  it('generates 160-bit base32 secrets that round-trip', () => {
    const secret = generateTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(fromBase32(secret).length, 20);
  });
});

/** The code an authenticator app shows for `secret` at `time`, `offset` steps away. */
async function codeAt(secret: string, time: Date, offset = 0): Promise<string> {
  return totpCode(fromBase32(secret), totpStepAt(time) + offset);
}

for (const engine of testEngines()) {
  describe(`staff second factors (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    before(async () => {
      h = await createHarness(engine);
      admin = await h.login();
    });
    after(() => h.close());

    async function passwordStep(email: string, password: string): Promise<Body> {
      return expectOk(await h.call('POST', '/v1/console/login', { body: { email, password } }));
    }

    async function enrolTotp(token: string): Promise<{ secret: string; confirmed: Body }> {
      // The clock starts at the wall clock's time, anywhere in a 30 s step: put it 5 s into one, so the
      // tests' one-second moves stay in the step they mean (a move across a boundary changes the code).
      h.clock.advance(STEP_MS - (h.clock.now().getTime() % STEP_MS) + 5_000);
      const started = await expectOk(await h.call('POST', '/v1/me/second-factors/totp', { token }), 201);
      assert.match(
        started['otpauth_uri'],
        /^otpauth:\/\/totp\/id-verify:.+\?secret=[A-Z2-7]+&issuer=id-verify/,
      );
      const wrong = await h.call('POST', '/v1/me/second-factors/totp/confirm', {
        token,
        body: {
          enrolment_id: started['enrolment_id'],
          code: '000000' === (await codeAt(started['secret'], h.clock.now())) ? '111111' : '000000',
        },
      });
      await expectProblem(wrong, 401, 'invalid_second_factor');
      const confirmed = await expectOk(
        await h.call('POST', '/v1/me/second-factors/totp/confirm', {
          token,
          body: {
            enrolment_id: started['enrolment_id'],
            code: await codeAt(started['secret'], h.clock.now()),
          },
        }),
      );
      return { secret: started['secret'], confirmed };
    }

    it('enrols TOTP with a first code, then logs in with password and code; a code works once', async () => {
      const user = await inviteAndLogIn(h, 'reviewer', admin);
      const earlier = await h.login({ ...h.tenant, email: user.email, password: user.password });
      const { secret, confirmed } = await enrolTotp(user.token);
      assert.equal(confirmed['recovery_codes'].length, 10);
      assert.equal(new Set(confirmed['recovery_codes']).size, 10);
      const upgraded = confirmed['login']['access_token'] as string;
      assert.ok(upgraded, 'the password-only token is exchanged for one that carries the factor');
      await expectProblem(await h.call('GET', '/v1/me', { token: user.token }), 401, 'invalid_token');

      // Another password-only session of the same user (opened before the enrolment) may still read,
      // but not change the factors: no swapping the authenticator, no stripping the account.
      assert.equal((await h.call('GET', '/v1/me', { token: earlier })).status, 200);
      for (const [method, path] of [
        ['DELETE', '/v1/me/second-factors/totp'],
        ['POST', '/v1/me/second-factors/totp'],
        ['POST', '/v1/me/second-factors/passkeys/options'],
        ['POST', '/v1/me/second-factors/recovery-codes'],
      ] as const) {
        await expectProblem(await h.call(method, path, { token: earlier }), 403, 'second_factor_required');
      }

      const rows = await h.deps.db.query<Body>('select secret_enc from user_totp where user_id = $1', [
        user.userId,
      ]);
      assert.ok(!JSON.stringify(rows).includes(secret), 'the secret is stored encrypted');
      const codes = await h.deps.db.query<Body>(
        'select code_digest from user_recovery_codes where user_id = $1',
        [user.userId],
      );
      for (const code of confirmed['recovery_codes']) {
        assert.ok(
          !JSON.stringify(codes).includes(code.replace('-', '')),
          'recovery codes are stored as digests',
        );
      }

      // The confirming code itself cannot log in (it was used).
      h.clock.advance(1000);
      const challenge = await passwordStep(user.email, user.password);
      assert.equal(challenge['second_factor_required'], true);
      assert.equal(challenge['access_token'], undefined, 'no token before the second factor');
      assert.deepEqual(challenge['methods'], ['totp', 'recovery_code']);
      const replayOfConfirmation = await h.call('POST', '/v1/console/login/second-factor', {
        body: {
          challenge_token: challenge['challenge_token'],
          totp_code: await codeAt(secret, h.clock.now()),
        },
      });
      await expectProblem(replayOfConfirmation, 401, 'invalid_second_factor');

      h.clock.advance(STEP_MS);
      const code = await codeAt(secret, h.clock.now());
      const tokens = await expectOk(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: { challenge_token: challenge['challenge_token'], totp_code: code },
        }),
      );
      assert.equal((await h.call('GET', '/v1/me', { token: tokens['access_token'] })).status, 200);

      // The same code again, on a fresh challenge: a replay, refused.
      const again = await passwordStep(user.email, user.password);
      const replay = await h.call('POST', '/v1/console/login/second-factor', {
        body: { challenge_token: again['challenge_token'], totp_code: code },
      });
      const problem = await expectProblem(replay, 401, 'invalid_second_factor');
      assert.match(problem['detail'], /already used/);
      // A challenge completes once.
      const reused = await h.call('POST', '/v1/console/login/second-factor', {
        body: {
          challenge_token: challenge['challenge_token'],
          totp_code: await codeAt(secret, h.clock.now(), 1),
        },
      });
      await expectProblem(reused, 410, 'login_challenge_expired');

      // One step either side is accepted; two steps behind is not.
      h.clock.advance(2 * STEP_MS);
      await expectProblem(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: {
            challenge_token: again['challenge_token'],
            totp_code: await codeAt(secret, h.clock.now(), -2),
          },
        }),
        401,
        'invalid_second_factor',
      );
      await expectOk(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: {
            challenge_token: again['challenge_token'],
            totp_code: await codeAt(secret, h.clock.now(), 1),
          },
        }),
      );

      // A recovery code works once.
      const recovery = confirmed['recovery_codes'][3] as string;
      const third = await passwordStep(user.email, user.password);
      await expectOk(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: { challenge_token: third['challenge_token'], recovery_code: recovery.toLowerCase() },
        }),
      );
      const fourth = await passwordStep(user.email, user.password);
      await expectProblem(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: { challenge_token: fourth['challenge_token'], recovery_code: recovery },
        }),
        401,
        'invalid_second_factor',
      );
      const factors = await expectOk(
        await h.call('GET', '/v1/me/second-factors', { token: tokens['access_token'] }),
      );
      assert.equal(factors['totp'], true);
      assert.equal(factors['recovery_codes_remaining'], 9);
      // A session that proved the factor replaces the codes: ten new ones, the old ones void.
      const replaced = await expectOk(
        await h.call('POST', '/v1/me/second-factors/recovery-codes', { token: upgraded }),
        201,
      );
      assert.equal(replaced['recovery_codes'].length, 10);
      const fifth = await passwordStep(user.email, user.password);
      await expectProblem(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: { challenge_token: fifth['challenge_token'], recovery_code: confirmed['recovery_codes'][5] },
        }),
        401,
        'invalid_second_factor',
      );

      const audit = await h.deps.db.query<{ action: string }>(
        'select action from audit_events where target_id = $1 order by created_at',
        [user.userId],
      );
      const actions = audit.map((row) => row.action);
      for (const action of [
        'user.totp_enrolled',
        'user.recovery_codes_issued',
        'console.second_factor_failed',
        'console.login',
      ]) {
        assert.ok(actions.includes(action), `${action} is audited (${actions.join(', ')})`);
      }
    });

    it('rate-limits wrong codes: a challenge closes after 5, the user waits after 10', async () => {
      const user = await inviteAndLogIn(h, 'viewer', admin);
      const { secret } = await enrolTotp(user.token);
      const right = await codeAt(secret, h.clock.now(), 5);
      const wrongCode = right === '123456' ? '654321' : '123456';
      const tryCode = async (challenge: Body, code: string) =>
        h.call('POST', '/v1/console/login/second-factor', {
          body: { challenge_token: challenge['challenge_token'], totp_code: code },
        });
      // enrolTotp typed one wrong code already: 1 failure.
      const first = await passwordStep(user.email, user.password);
      let lastStatus = 0;
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await tryCode(first, wrongCode);
        lastStatus = response.status;
        await response.body?.cancel();
      }
      await expectProblem(await tryCode(first, wrongCode), 410, 'login_challenge_expired');
      const second = await passwordStep(user.email, user.password);
      for (let attempt = 0; attempt < 4; attempt++) {
        const response = await tryCode(second, wrongCode);
        lastStatus = response.status;
        await response.body?.cancel();
      }
      assert.equal(lastStatus, 401);
      h.clock.advance(STEP_MS);
      // 10 wrong answers in 15 minutes: even the right code waits.
      const challenge = second;
      const throttled = await h.call('POST', '/v1/console/login/second-factor', {
        body: {
          challenge_token: challenge['challenge_token'],
          totp_code: await codeAt(secret, h.clock.now()),
        },
      });
      await expectProblem(throttled, 429, 'too_many_attempts');
      assert.ok(Number(throttled.headers.get('retry-after')) > 0);
      h.clock.advance(16 * 60_000);
      const later = await passwordStep(user.email, user.password);
      await expectOk(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: { challenge_token: later['challenge_token'], totp_code: await codeAt(secret, h.clock.now()) },
        }),
      );

      // The retention sweep deletes challenges once they expired beyond the throttle's window, not before.
      const count = async () =>
        (
          await h.deps.db.query<{ n: number }>(
            'select count(*)::int as n from second_factor_challenges where user_id = $1',
            [user.userId],
          )
        )[0]?.n ?? 0;
      const before = await count();
      await createRetentionSweeper(h.deps).runOnce();
      assert.equal(before, 4, 'the enrolment and the three logins of this test');
      assert.equal(
        await count(),
        before,
        'expired less than 15 minutes ago: kept, their wrong answers still count',
      );
      // 21 minutes on, the last one (5 min expiry) also expired more than 15 minutes ago.
      h.clock.advance(21 * 60_000);
      await createRetentionSweeper(h.deps).runOnce();
      assert.equal(await count(), 0);
    });

    it('registers a passkey and logs in with a real signed assertion; a stale counter or another origin is refused', async () => {
      const user = await inviteAndLogIn(h, 'developer', admin);
      const authenticator = new SoftwareAuthenticator(new URL(TEST_BASE_URL).hostname, TEST_BASE_URL);
      const started = await expectOk(
        await h.call('POST', '/v1/me/second-factors/passkeys/options', { token: user.token }),
        201,
      );
      assert.equal(started['options']['rp']['id'], 'api.idv.test');
      assert.equal(started['options']['attestation'], 'none');
      const registered = await expectOk(
        await h.call('POST', '/v1/me/second-factors/passkeys', {
          token: user.token,
          body: {
            registration_id: started['registration_id'],
            name: 'Laptop',
            response: authenticator.register(started['options']),
          },
        }),
        201,
      );
      assert.equal(registered['passkey']['name'], 'Laptop');
      assert.equal(registered['recovery_codes'].length, 10);
      assert.ok(registered['login']['access_token'], 'the password-only token is exchanged');
      // A registration challenge works once.
      await expectProblem(
        await h.call('POST', '/v1/me/second-factors/passkeys', {
          token: registered['login']['access_token'],
          body: {
            registration_id: started['registration_id'],
            name: 'Again',
            response: authenticator.register(started['options']),
          },
        }),
        410,
        'login_challenge_expired',
      );

      const challenge = await passwordStep(user.email, user.password);
      assert.deepEqual(challenge['methods'], ['passkey', 'recovery_code']);
      const options = challenge['passkey_options'];
      assert.equal(options['allowCredentials'][0]['id'], authenticator.id);
      // Signed for another origin: refused.
      await expectProblem(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: {
            challenge_token: challenge['challenge_token'],
            passkey: authenticator.assert(options['challenge'], { origin: 'https://evil.example' }),
          },
        }),
        401,
        'invalid_second_factor',
      );
      const tokens = await expectOk(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: {
            challenge_token: challenge['challenge_token'],
            passkey: authenticator.assert(options['challenge']),
          },
        }),
      );
      assert.equal((await h.call('GET', '/v1/me', { token: tokens['access_token'] })).status, 200);

      // A cloned key replaying an old counter: refused.
      const next = await passwordStep(user.email, user.password);
      await expectProblem(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: {
            challenge_token: next['challenge_token'],
            passkey: authenticator.assert(next['passkey_options']['challenge'], { counter: 1 }),
          },
        }),
        401,
        'invalid_second_factor',
      );
      // An assertion over another challenge (a captured one): refused.
      await expectProblem(
        await h.call('POST', '/v1/console/login/second-factor', {
          body: {
            challenge_token: next['challenge_token'],
            passkey: authenticator.assert(options['challenge']),
          },
        }),
        401,
        'invalid_second_factor',
      );

      const listed = await expectOk(
        await h.call('GET', '/v1/me/second-factors', { token: tokens['access_token'] }),
      );
      assert.equal(listed['passkeys'].length, 1);
      const rows = await h.deps.db.query<Body>(
        'select sign_count, last_used_at from user_passkeys where user_id = $1',
        [user.userId],
      );
      // The authenticator signed twice (the refused other-origin assertion, then the accepted one).
      assert.equal(Number(rows[0]?.['sign_count']), 2);
      // A passkey is its user's alone: another member of the tenant, or another tenant's admin, naming its id
      // is answered as for an id that never existed, and the passkey stays.
      const passkeyPath = `/v1/me/second-factors/passkeys/${registered['passkey']['passkey_id']}`;
      for (const stranger of [await h.login(), await h.login(h.other)]) {
        const foreign = await h.call('DELETE', passkeyPath, { token: stranger });
        const missing = await h.call(
          'DELETE',
          '/v1/me/second-factors/passkeys/pk_00000000000000000000000000',
          {
            token: stranger,
          },
        );
        assert.equal(foreign.status, 404);
        assert.equal(missing.status, 404);
        assert.equal((await json(foreign))['code'], (await json(missing))['code']);
      }
      assert.equal(
        (await expectOk(await h.call('GET', '/v1/me/second-factors', { token: tokens['access_token'] })))[
          'passkeys'
        ].length,
        1,
      );
      await expectOk(await h.call('DELETE', passkeyPath, { token: tokens['access_token'] }));
      const plain = await passwordStep(user.email, user.password);
      assert.ok(plain['access_token'], 'with no second factor left, the password alone logs in again');
    });

    it('a tenant that requires a second factor: a member without one reaches nothing but enrolment', async () => {
      const { other } = h;
      const otherAdmin = await h.login(other);
      const member = await inviteAndLogIn(h, 'tenant_admin', otherAdmin, other);
      await expectOk(
        await h.call('PATCH', '/v1/tenant', { token: otherAdmin, body: { require_second_factor: true } }),
      );
      const tenant = await expectOk(await h.call('GET', '/v1/tenant', { key: other.productionKey }));
      assert.equal(tenant['require_second_factor'], true);

      // Tokens issued before the switch lose their reach at once; a new login is restricted.
      const restricted = await passwordStep(member.email, member.password);
      assert.equal(restricted['second_factor_enrolment_required'], true);
      assert.deepEqual(restricted['capabilities'], []);
      const spec = await json(await h.call('GET', '/v1/openapi.json'));
      const allowed = new Set([
        'getSecondFactors',
        'startTotpEnrolment',
        'confirmTotpEnrolment',
        'startPasskeyRegistration',
        'registerPasskey',
        'consoleLogout',
      ]);
      let checked = 0;
      for (const token of [member.token, otherAdmin, restricted['access_token'] as string]) {
        for (const [path, operations] of Object.entries(spec['paths'] as Record<string, Body>)) {
          for (const [method, operation] of Object.entries(operations)) {
            const security = operation['security'] as Body[] | undefined;
            if (!security?.some((entry) => 'ConsoleBearer' in entry)) continue;
            if (allowed.has(operation['operationId'])) continue;
            const concrete = path.replace(/\{[^}]+\}/g, 'x_unknown');
            const response = await h.call(method.toUpperCase(), concrete, {
              token,
              ...(method === 'get' || method === 'head' ? {} : { body: {} }),
            });
            const body = await json(response);
            assert.equal(
              response.status,
              403,
              `${method} ${path}: ${response.status} ${JSON.stringify(body)}`,
            );
            assert.equal(body['code'], 'second_factor_required', `${method} ${path}`);
            checked += 1;
          }
        }
      }
      assert.ok(checked > 60, `every console operation was tried (${checked})`);

      // Enrolling upgrades the restricted token to a full one and revokes the restricted one.
      const { confirmed } = await enrolTotp(restricted['access_token']);
      const login = confirmed['login'] as Body;
      assert.ok(login['access_token']);
      assert.equal((await h.call('GET', '/v1/users', { token: login['access_token'] })).status, 200);
      await expectProblem(
        await h.call('GET', '/v1/me/second-factors', { token: restricted['access_token'] }),
        401,
        'invalid_token',
      );
      // The last factor cannot be removed while the tenant requires one.
      await expectProblem(
        await h.call('DELETE', '/v1/me/second-factors/totp', { token: login['access_token'] }),
        409,
        'last_second_factor',
      );
      // API keys are not staff accounts: unaffected.
      assert.equal((await h.call('GET', '/v1/sessions', { key: other.sandboxKey })).status, 200);
    });
  });
}
