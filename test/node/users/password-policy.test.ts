import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  checkPassword,
  PASSWORD_MIN_LENGTH,
  type PasswordRule,
} from '../../../server/features/users/password-policy.ts';
import { expectOk, expectProblem } from '../api/console-support.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

const CONTEXT = { email: 'ana.silva@acme-bank.test', tenantName: 'Acme Bank' };

describe('the staff password policy (NIST SP 800-63B)', () => {
  const ruleOf = async (password: string) => (await checkPassword(password, CONTEXT))?.rule ?? null;

  it(`asks for ${PASSWORD_MIN_LENGTH} characters, counted as code points, and nothing about their kind`, async () => {
    assert.equal(PASSWORD_MIN_LENGTH, 15);
    assert.equal(await ruleOf('aaaaaaaaaaaa'), 'too_short', "the audit's 12 a's");
    assert.equal(
      await ruleOf('zebra lamp quiet'),
      null,
      'lower-case letters and spaces only: no composition rule',
    );
    assert.equal(await ruleOf('zebra lamp qui'), 'too_short');
    // 15 code points, 16 UTF-16 units: one emoji is one character, as NIST counts.
    assert.equal(await ruleOf('rüstig zebra 🦓x'), null);
    assert.equal(await ruleOf('rüstig zebra 🦓'), 'too_short');
    assert.equal(await ruleOf(`${'stapler orbit '.repeat(73)}velvet`), 'too_long');
  });

  it('refuses what is guessed first: repeats, common and breached passwords and their variations', async () => {
    const refused: [string, PasswordRule][] = [
      ['aaaaaaaaaaaaaaaa', 'repeated_character'],
      ['password1234567', 'common_password'],
      ['Password123456!!', 'common_password'],
      ['Welcome2024!2024', 'common_password'],
      ['iloveyou12345678', 'common_password'],
      ['qwertyuiopasdfgh', 'common_password'],
      ['abcdefghijklmnop', 'common_password'],
      ['1234567890123456', 'common_password'],
      ['p@ssw0rdp@ssw0rd', 'common_password'],
      ['Trustno1Trustno1', 'common_password'],
    ];
    for (const [password, rule] of refused) assert.equal(await ruleOf(password), rule, password);
  });

  it("refuses the account's own e-mail address, its name part and the tenant's name", async () => {
    assert.equal(await ruleOf('ana.silva@acme-bank.test'), 'contains_email');
    assert.equal(await ruleOf('ANA.SILVA-is-my-password'), 'contains_email');
    assert.equal(await ruleOf('acmebank is where I work'), 'contains_tenant_name');
    assert.equal(await ruleOf('Acme Bank staff 2026!'), 'contains_tenant_name');
  });

  it('accepts long passphrases and random passwords', async () => {
    for (const password of [
      'correct horse battery staple',
      'stapler orbit velvet canyon',
      'my dog is called rex',
      'gB7#kq9!Lm2$zR4x',
      'Über den Wolken fliegt ein Kranich',
    ]) {
      assert.equal(await checkPassword(password, CONTEXT), null, password);
    }
  });

  it('says why in a sentence', async () => {
    const refusal = await checkPassword('Password123456!!', CONTEXT);
    assert.match(refusal?.detail ?? '', /common or breached passwords/);
    assert.match(
      (await checkPassword('short', CONTEXT))?.detail ?? '',
      /at least 15 characters \(this has 5\)/,
    );
  });
});

for (const engine of testEngines()) {
  describe(`accepting an invitation applies the password policy (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    before(async () => {
      h = await createHarness(engine);
      admin = await h.login();
    });
    after(() => h.close());

    it('refuses a weak password as an RFC 9457 problem naming the rule, and leaves the invitation open', async () => {
      const email = `policy-${Date.now()}@staff.idv.test`;
      const invited = await expectOk(
        await h.call('POST', '/v1/users', { token: admin, body: { email, role: 'viewer' } }),
        201,
      );
      const accept = (password: string) =>
        h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: invited['invitation_token'], password },
        });
      const cases: [string, PasswordRule][] = [
        ['aaaaaaaaaaaa', 'too_short'],
        ['aaaaaaaaaaaaaaaa', 'repeated_character'],
        ['Password123456!!', 'common_password'],
        [`${email}!`, 'contains_email'],
        ['Tenant A for ever and ever', 'contains_tenant_name'],
      ];
      for (const [password, rule] of cases) {
        const problem = await expectProblem(await accept(password), 400, 'invalid_parameter');
        assert.equal(problem['param'], 'password', password);
        assert.equal(problem['password_rule'], rule, password);
        assert.equal(typeof problem['detail'], 'string');
        assert.ok(!String(problem['detail']).includes(password), 'the password is never echoed');
      }
      const accepted = await expectOk(await accept('stapler orbit velvet canyon'));
      assert.equal(accepted['status'], 'active');
    });
  });
}
