import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { until } from '../support/dom.ts';
import { deepActiveElement, mountConsole, resetStorage, screenOf, settled } from './support/mount-console.ts';

/** The session the review screen shows now (the id in its heading). */
function currentId(el: HTMLElement): string | null {
  return (
    screenOf(el as never)
      ?.shadowRoot?.querySelector('#current a')
      ?.textContent?.trim() ?? null
  );
}

/** Waits until the current session's result is loaded: its decision form is there. */
async function decisionReady(el: HTMLElement): Promise<void> {
  await until(
    () => screenOf(el as never)?.shadowRoot?.querySelector('#decision #note'),
    4000,
    'the decision form',
  );
}

async function imagesLoaded(el: HTMLElement): Promise<HTMLImageElement[]> {
  return until(
    () => {
      // The evidence section's viewers (the face comparison above it shows two of them again).
      const viewers = [
        ...(screenOf(el as never)?.shadowRoot?.querySelectorAll('.images idv-evidence-image') ?? []),
      ];
      const images = viewers
        .map((viewer) => viewer.shadowRoot?.querySelector('img'))
        .filter(Boolean) as HTMLImageElement[];
      return images.length === 3 && images.every((img) => img.complete && img.naturalWidth > 0)
        ? images
        : null;
    },
    4000,
    'three decoded evidence images',
  );
}

describe('console review queue', () => {
  afterEach(() => resetStorage());

  it('is driven by the keyboard alone: j/k to move, a to approve, Tab and Space to tick a reason, r to reject', async function () {
    this.timeout(20_000);
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    // Oldest first: handed to review 26 h, 5 h and 3 h ago.
    await until(() => currentId(el) === 'sess_Review00000000000001', 4000, 'the oldest session');
    await imagesLoaded(el);
    const shortcuts = screenOf(el)!.shadowRoot!.querySelector('.shortcuts')!.textContent!;
    for (const text of ['j', 'k', 'a', 'r', 'Next session', 'Previous session', 'Approve', 'Reject']) {
      expect(shortcuts).to.include(text);
    }

    await sendKeys({ press: 'j' });
    await until(() => currentId(el) === 'sess_Review00000000000002', 4000, 'the next session');
    await until(() => deepActiveElement()?.id === 'current', 2000, 'focus on the session heading');
    await sendKeys({ press: 'k' });
    await until(() => currentId(el) === 'sess_Review00000000000001', 4000, 'back to the first');
    await sendKeys({ press: 'k' });
    await settled(el);
    expect(currentId(el)).to.equal('sess_Review00000000000001', 'k on the first stays');
    await decisionReady(el);

    await sendKeys({ press: 'a' });
    await until(() => backend.reviews.length === 1, 4000, 'the approval');
    expect(backend.reviews[0]).to.deep.include({ id: 'sess_Review00000000000001', decision: 'approve' });
    await until(() => currentId(el) === 'sess_Review00000000000002', 4000, 'the next in line');
    await until(
      () => /Saved: Approved/.test(screenOf(el)!.shadowRoot!.textContent ?? ''),
      2000,
      'the outcome',
    );
    await imagesLoaded(el);
    await until(() => deepActiveElement()?.id === 'current', 2000, 'focus on the new session');

    // Tab through the page (links, image tools, …) to the reason, tick it with Space.
    for (
      let presses = 0;
      presses < 60 && deepActiveElement()?.id !== 'reason-document_tampered';
      presses += 1
    ) {
      await sendKeys({ press: 'Tab' });
    }
    expect(deepActiveElement()?.id).to.equal('reason-document_tampered');
    // ' ', not 'Space': Firefox (WebDriver BiDi) knows keys by value, Chromium and WebKit take both.
    await sendKeys({ press: ' ' });
    expect((deepActiveElement() as HTMLInputElement).checked).to.equal(true);
    await sendKeys({ press: 'r' });
    await until(() => backend.reviews.length === 2, 4000, 'the rejection');
    expect(backend.reviews[1]).to.deep.include({ id: 'sess_Review00000000000002', decision: 'reject' });
    expect(backend.reviews[1]!.reason_codes).to.deep.equal(['document_tampered']);
    await until(() => currentId(el) === 'sess_Review00000000000003', 4000, 'the last one');
    expect(screenOf(el)!.shadowRoot!.textContent).to.include('1 waiting');
  });

  it('does not take letters typed in the note as shortcuts', async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    await until(() => currentId(el), 4000, 'a session');
    await decisionReady(el);
    const note = screenOf(el)!.shadowRoot!.querySelector<HTMLTextAreaElement>('#note')!;
    note.focus();
    // One key at a time: WebKitWebDriver drops a key typed again soon after in one sequence ("ja r").
    for (const key of 'ja ar') await sendKeys({ press: key });
    await settled(el);
    expect(note.value).to.equal('ja ar');
    expect(backend.reviews).to.have.length(0);
    expect(currentId(el)).to.equal('sess_Review00000000000001');
  });

  it('fetches evidence with the console token as blobs, and zooms and rotates it', async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    const [front] = await imagesLoaded(el);
    expect(front!.src).to.match(/^blob:/);
    const downloads = backend.requests.filter((r) => /\/evidence\/upl_/.test(r.path));
    expect(downloads).to.have.length(3);
    for (const download of downloads)
      expect(download.headers.get('authorization')).to.match(/^Bearer tok_reviewer_/);
    const viewer = screenOf(el)!.shadowRoot!.querySelector('idv-evidence-image')!;
    const [zoomIn, , rotate] = [...viewer.shadowRoot!.querySelectorAll<HTMLButtonElement>('.tools button')];
    zoomIn!.click();
    rotate!.click();
    await (viewer as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const img = viewer.shadowRoot!.querySelector('img')!;
    expect(img.style.inlineSize).to.equal('150%');
    expect(img.style.transform).to.equal('rotate(90deg)');
    expect(img.getAttribute('alt')).to.equal('Document, front, 240 × 150 pixels');
  });

  it('shows the checks under the comparison', async () => {
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    await until(() => screenOf(el)?.shadowRoot?.querySelector('.checks-table table'), 4000, 'the checks');
    const text = screenOf(el)!.shadowRoot!.querySelector('.checks-table')!.textContent!;
    expect(text).to.include('Document authenticity');
    expect(text).to.include('Inconclusive');
    expect(text).to.include('mrz_check_digits');
  });

  it("shows the face match's zone in words, why, and the score against the limits beside the images", async () => {
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    await until(() => screenOf(el)?.shadowRoot?.querySelector('.checks-table table'), 4000, 'the checks');
    const row = [...screenOf(el)!.shadowRoot!.querySelectorAll('.checks-table tbody tr')].find(
      (tr) => tr.querySelector('th')?.textContent?.trim() === 'Face match',
    )!;
    const facts = [...row.querySelectorAll('dl.facts dt')].map((dt) => [
      dt.textContent!.trim(),
      dt.nextElementSibling!.textContent!.trim(),
    ]);
    expect(facts.slice(0, 3)).to.deep.equal([
      ['Zone', 'Uncertain'],
      [
        'Why',
        'Unsure: the face is 0.5712 from the reference over 3 frames, between the match limit 0.55 and the mismatch limit 0.62; a person should compare them.',
      ],
      ['Score and limits', '0.5712 (match limit 0.55, mismatch limit 0.62)'],
    ]);
  });

  it('says who decided first when the decision comes too late (409)', async () => {
    const { el, backend } = await mountConsole({ role: 'tenant_admin', path: '/console/reviews' });
    await until(() => currentId(el) === 'sess_Review00000000000001', 4000, 'the first session');
    // Meanwhile a colleague rejects it (the admin's claim on it having lapsed).
    await until(() => backend.claims.has('sess_Review00000000000001'), 4000, "the admin's claim");
    backend.claims.clear();
    const colleague = backend.tokenFor('reviewer');
    await backend.fetch('/v1/sessions/sess_Review00000000000001/review', {
      method: 'POST',
      headers: { authorization: `Bearer ${colleague}` },
      body: JSON.stringify({ decision: 'reject' }),
    });
    const approve = await until(
      () => screenOf(el)?.shadowRoot?.querySelector<HTMLButtonElement>('#decision #approve'),
      4000,
      'the decision form',
    );
    approve.click();
    const conflict = await until(
      () => screenOf(el)?.shadowRoot?.querySelector('#conflict'),
      4000,
      'the conflict notice',
    );
    expect(conflict.textContent).to.include('Someone else decided first: Rejected, by reviewer@tenant.test');
    expect(conflict.getAttribute('role')).to.equal('alert');
    const decide = [...screenOf(el)!.shadowRoot!.querySelectorAll<HTMLButtonElement>('#approve, #reject')];
    expect(decide.every((button) => button.disabled)).to.equal(true);
  });

  it('shows an empty queue plainly', async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/dashboard' });
    for (const session of backend.sessions)
      if (session.status === 'review_required') session.status = 'approved';
    el.navigate('/console/reviews');
    await until(() => /The queue is empty/.test(screenOf(el)?.shadowRoot?.textContent ?? ''), 4000, 'empty');
  });
});
