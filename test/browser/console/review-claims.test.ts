/**
 * The review screen's team workflow and comparison (issue 25) on the fake backend: the session shown is
 * claimed; another reviewer's claim disables the decision until a confirmed take-over (audited); a
 * decision refused with 409 `review_claimed` says who holds it; the document data is compared field by
 * field with the differing ones marked in words; the images keep to `blob:` URLs and answer keys.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { until } from '../support/dom.ts';
import { FakeConsoleBackend } from './support/fake-console-backend.ts';
import { deepActiveElement, mountConsole, resetStorage, screenOf, settled } from './support/mount-console.ts';

const FIRST = 'sess_Review00000000000001';
const COLLEAGUE = 'usr_Colleague00000000001';

function root(el: HTMLElement): ShadowRoot {
  return screenOf(el as never)!.shadowRoot!;
}

async function ready(el: HTMLElement): Promise<ShadowRoot> {
  return until(
    () => (screenOf(el as never)?.shadowRoot?.querySelector('#decision #approve') ? root(el) : null),
    6000,
    'the decision form',
  );
}

function colleagueClaim(backend: FakeConsoleBackend): void {
  backend.claims.set(FIRST, {
    object: 'review_claim',
    session_id: FIRST,
    reviewer_id: COLLEAGUE,
    claimed_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 20 * 60_000).toISOString(),
    assigned_by: null,
  });
}

describe('console review claims and comparison', () => {
  afterEach(() => resetStorage());

  it('claims the session it shows and releases it on request', async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    const shadow = await ready(el);
    await until(() => backend.claims.get(FIRST), 4000, 'the claim');
    expect(backend.claims.get(FIRST)!.reviewer_id).to.equal('usr_Review0000000000000001');
    const bar = await until(
      () =>
        /You are reviewing/.test(shadow.querySelector('#claim')?.textContent ?? '')
          ? shadow.querySelector('#claim')
          : null,
      4000,
      'the claim bar',
    );
    bar!.querySelector<HTMLButtonElement>('button')!.click();
    await until(() => !backend.claims.has(FIRST), 4000, 'the release');
    expect(backend.writes()).to.include(`DELETE /v1/sessions/${FIRST}/claim`);
  });

  it('renews the claim every ten minutes while the session is shown, and stops when it is left', async () => {
    // The renewal timer, caught instead of waited for: ten minutes are not a test's time.
    const renewals: (() => void)[] = [];
    const cleared: unknown[] = [];
    const setIntervalBefore = window.setInterval;
    const clearIntervalBefore = window.clearInterval;
    window.setInterval = ((handler: () => void, ms?: number) => {
      if (ms === 10 * 60_000) {
        renewals.push(handler);
        return 9_999_000 + renewals.length;
      }
      return setIntervalBefore(handler, ms);
    }) as typeof window.setInterval;
    window.clearInterval = ((id?: number) => {
      cleared.push(id);
      clearIntervalBefore(id);
    }) as typeof window.clearInterval;
    try {
      const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
      await ready(el);
      await until(() => renewals.length > 0, 4000, 'the renewal timer');
      await settled(el);
      const claims = () => backend.writes().filter((w) => w === `POST /v1/sessions/${FIRST}/claim`).length;
      const before = claims();
      const timer = 9_999_000 + renewals.length;
      renewals.at(-1)!();
      await until(() => claims() === before + 1, 4000, 'the renewal');
      expect(backend.claims.get(FIRST)?.reviewer_id).to.equal('usr_Review0000000000000001');
      await sendKeys({ press: 'j' });
      await until(() => cleared.includes(timer) || cleared.includes(timer + 1), 4000, 'the timer stopped');
      await until(() => !backend.claims.has(FIRST), 4000, 'the first session released');
    } finally {
      window.setInterval = setIntervalBefore;
      window.clearInterval = clearIntervalBefore;
    }
  });

  it("keeps a colleague's session undecidable until a confirmed take-over, which is audited", async function () {
    this.timeout(15_000);
    const backend = new FakeConsoleBackend();
    colleagueClaim(backend);
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews', backend });
    const shadow = await ready(el);
    const claim = await until(() => shadow.querySelector('#claim.bad'), 4000, "the colleague's claim");
    expect(claim.textContent).to.include(`${COLLEAGUE} is reviewing this session`);
    expect(shadow.querySelector<HTMLButtonElement>('#approve')!.disabled).to.equal(true);
    expect(shadow.querySelector<HTMLButtonElement>('#reject')!.disabled).to.equal(true);
    // The shortcut does nothing either.
    await sendKeys({ press: 'a' });
    expect(backend.reviews).to.have.length(0);

    shadow.querySelector<HTMLButtonElement>('#take-over')!.click();
    const confirm = await until(
      () => shadow.querySelector<HTMLButtonElement>('#confirm-take-over'),
      2000,
      'the confirmation',
    );
    expect(shadow.querySelector('.confirm')!.textContent).to.include('recorded in the audit log');
    await until(() => deepActiveElement() === confirm, 2000, 'focus on the confirmation');
    expect(backend.writes()).to.not.include(`POST /v1/sessions/${FIRST}/claim/take-over`);
    await sendKeys({ press: 'Enter' });
    await until(
      () => backend.claims.get(FIRST)?.reviewer_id === 'usr_Review0000000000000001',
      4000,
      'the take-over',
    );
    const audited = backend.audit.find((event) => event.action === ('session.claim_taken_over' as never));
    expect(audited?.details).to.deep.equal({ previous_reviewer_id: COLLEAGUE });
    await until(
      () => !shadow.querySelector<HTMLButtonElement>('#approve')!.disabled,
      2000,
      'the decision enabled',
    );
    shadow.querySelector<HTMLButtonElement>('#approve')!.click();
    await until(() => backend.reviews.length === 1, 4000, 'the approval');
  });

  it('says who holds the session when the decision is refused with 409 review_claimed', async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    const shadow = await ready(el);
    await until(() => backend.claims.get(FIRST), 4000, 'my claim');
    colleagueClaim(backend); // the colleague took it over meanwhile
    shadow.querySelector<HTMLButtonElement>('#approve')!.click();
    const claim = await until(() => shadow.querySelector('#claim.bad'), 4000, 'the refusal');
    expect(claim.textContent).to.include(COLLEAGUE);
    expect(backend.reviews).to.have.length(0);
    expect(shadow.querySelector<HTMLButtonElement>('#approve')!.disabled).to.equal(true);
  });

  it('compares the document data field by field, marking differences in words', async () => {
    const backend = new FakeConsoleBackend();
    backend.documentData.set(FIRST, {
      object: 'document_data',
      session_id: FIRST,
      document_type: 'passport',
      issuing_country: 'DEU',
      fields: ['first_name', 'last_name', 'date_of_birth'],
      sources: [
        {
          source: 'typed',
          verified: true,
          values: {
            first_name: 'ANNA',
            last_name: 'MUSTER',
            date_of_birth: '1990-01-31',
            document_number: null,
            expiry_date: null,
            nationality: null,
          },
        },
        {
          source: 'mrz',
          verified: true,
          values: {
            first_name: 'ANNA',
            last_name: 'MUSTER',
            date_of_birth: '1990-01-13',
            document_number: null,
            expiry_date: null,
            nationality: null,
          },
        },
      ],
      disagreements: ['date_of_birth'],
    });
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews', backend });
    const shadow = await ready(el);
    const table = await until(() => shadow.querySelector('#document-data table'), 4000, 'the comparison');
    const headings = [...table.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
    expect(headings).to.deep.equal(['Field', 'Typed by the person', 'MRZ', 'Agreement']);
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.children].map((cell) => cell.textContent!.trim()),
    );
    expect(rows).to.deep.equal([
      ['First name', 'ANNA', 'ANNA', 'Agrees'],
      ['Last name', 'MUSTER', 'MUSTER', 'Agrees'],
      ['Date of birth', '1990-01-31', '1990-01-13', 'Differs'],
    ]);
    expect(table.querySelector('tr.differs th')!.textContent).to.equal('Date of birth');
  });

  it('names the differing fields from the check when the values cannot be read', async () => {
    const backend = new FakeConsoleBackend();
    backend.checksFor = () => [
      {
        type: 'data_consistency',
        status: 'failed',
        reason_codes: ['data_mismatch'],
        details: { sources: ['typed', 'mrz'], fields: ['date_of_birth'] },
      },
    ];
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews', backend });
    const shadow = await ready(el);
    const section = await until(() => shadow.querySelector('#document-data dl'), 4000, 'the fields');
    expect(section.textContent).to.include('Typed by the person, MRZ');
    expect(section.textContent).to.include('Differs');
    expect(section.textContent).to.include('Date of birth');
  });

  it('puts the reason for review first and the portrait beside the closest frame', async () => {
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    const shadow = await ready(el);
    const reasons = shadow.querySelector('#review-reasons')!;
    expect(reasons.textContent).to.include('face_match_uncertain');
    const faces = shadow.querySelector('#face-comparison')!;
    const captions = [...faces.querySelectorAll('idv-evidence-image')].map(
      (viewer) => (viewer as never as { caption: string }).caption,
    );
    expect(captions).to.deep.equal(['Document, front', 'Selfie (frame 1)']);
    expect(faces.textContent).to.include('Uncertain');
    // The viewer answers keys on its focused frame, and the screen's shortcuts leave them alone.
    const viewer = faces.querySelector('idv-evidence-image')!;
    const image = await until(() => viewer.shadowRoot?.querySelector('img'), 4000, 'the portrait');
    expect(image.src).to.match(/^blob:/);
    viewer.shadowRoot!.querySelector<HTMLElement>('.frame')!.focus();
    await sendKeys({ press: '+' });
    await sendKeys({ press: ']' });
    await (viewer as never as { updateComplete: Promise<unknown> }).updateComplete;
    expect(image.style.inlineSize).to.equal('150%');
    expect(image.style.transform).to.equal('rotate(90deg)');
    await sendKeys({ press: '0' });
    await (viewer as never as { updateComplete: Promise<unknown> }).updateComplete;
    expect(image.style.transform).to.equal('rotate(0deg)');
  });
});
