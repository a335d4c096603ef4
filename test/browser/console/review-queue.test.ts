/**
 * The team queue (issue 25) on the fake backend: searched and filtered through the URL, each session's
 * waiting time against the tenant's target in words and colour, who holds it, an admin's assignment; and
 * the sessions list's CSV export of the current filters.
 */
import { expect } from '@open-wc/testing';
import { until } from '../support/dom.ts';
import { mountConsole, resetStorage, screenOf, screenShows } from './support/mount-console.ts';

function root(el: HTMLElement): ShadowRoot {
  return screenOf(el as never)!.shadowRoot!;
}

function currentId(el: HTMLElement): string | null {
  return root(el).querySelector('#current a')?.textContent?.trim() ?? null;
}

function queueIds(el: HTMLElement): string[] {
  return [...root(el).querySelectorAll('.queue-list li .mono')].map((node) => node.textContent!.trim());
}

describe('console team queue', () => {
  afterEach(() => resetStorage());

  it('searches and filters the queue through the URL', async () => {
    const { el, backend, history } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    await until(() => queueIds(el).length === 3, 4000, 'the whole queue');
    const shadow = root(el);
    shadow.querySelector<HTMLSelectElement>('#q-reason')!.value = 'face_match_uncertain';
    shadow.querySelector<HTMLFormElement>('.queue-filters')!.requestSubmit();
    await until(() => queueIds(el).length === 2, 4000, 'the filtered queue');
    expect(history.href).to.include('reason=face_match_uncertain');
    expect(queueIds(el)).to.deep.equal(['sess_Review00000000000001', 'sess_Review00000000000003']);
    const asked = backend.requests.filter((r) => r.path === '/v1/review-queue').at(-1)!;
    expect(asked.query.getAll('reason_code')).to.deep.equal(['face_match_uncertain']);

    root(el).querySelector<HTMLInputElement>('#q-search')!.value = 'sess_Review00000000000003';
    root(el).querySelector<HTMLFormElement>('.queue-filters')!.requestSubmit();
    await until(() => currentId(el) === 'sess_Review00000000000003', 4000, 'the session searched for');
    expect(queueIds(el)).to.deep.equal(['sess_Review00000000000003']);

    root(el).querySelector<HTMLInputElement>('#q-search')!.value = 'nobody';
    root(el).querySelector<HTMLFormElement>('.queue-filters')!.requestSubmit();
    await screenShows(el, 'No session in the queue matches these filters.');
    expect(root(el).textContent).to.not.include('The queue is empty');
  });

  it("shows each session's waiting time against the target in words, and who holds it", async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    backend.reviewTargetMinutes = 240;
    await until(() => queueIds(el).length === 3, 4000, 'the queue');
    const items = [...root(el).querySelectorAll('.queue-list li')].map((li) =>
      li.textContent!.replace(/\s+/g, ' '),
    );
    // Created 26 h, 5 h and 3 h ago (handed to review a little later), against a 4 h target.
    expect(items[0]).to.match(/Waiting 1 ?d \d+ ?h of a 4 ?h target Over target/);
    expect(items[2]).to.match(/Waiting [23] ?h( \d+ ?m(in)?)? of a 4 ?h target Within target/);
    expect(root(el).querySelector('.queue-list li .badge.tone-bad')!.textContent).to.equal('Over target');
    // The first one is being reviewed by this reviewer once shown.
    await until(() => backend.claims.has('sess_Review00000000000001'), 4000, 'the claim');
    expect(items[1]).to.include('Unclaimed');
  });

  it('lets a tenant admin assign the session shown to a reviewer (audited)', async () => {
    const { el, backend } = await mountConsole({ role: 'tenant_admin', path: '/console/reviews' });
    const select = await until(
      () => root(el).querySelector<HTMLSelectElement>('#assignee'),
      4000,
      'the assignment',
    );
    const options = [...select.options].map((option) => option.textContent);
    expect(options).to.deep.equal(['admin@tenant.test', 'reviewer@tenant.test']);
    select.value = 'usr_Review0000000000000001';
    root(el).querySelector<HTMLFormElement>('form.assign')!.requestSubmit();
    await until(
      () => backend.claims.get('sess_Review00000000000001')?.expires_at === null,
      4000,
      'the assignment',
    );
    expect(backend.claims.get('sess_Review00000000000001')!.reviewer_id).to.equal(
      'usr_Review0000000000000001',
    );
    expect(backend.audit[0]!.action).to.equal('session.assigned');
    await until(
      () => /assigned to reviewer@tenant.test/i.test(root(el).querySelector('#claim')?.textContent ?? ''),
      2000,
      'the claim bar',
    );
    expect(root(el).querySelector<HTMLButtonElement>('#approve')!.disabled).to.equal(true);
  });

  it('offers no assignment to a reviewer', async () => {
    const { el } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    await until(() => root(el).querySelector('#decision #approve'), 4000, 'the decision');
    expect(root(el).querySelector('#assignee')).to.equal(null);
  });

  it('links a session to its place in the queue and to the audit log of who opened it', async () => {
    const id = 'sess_Review00000000000002';
    const { el, backend } = await mountConsole({ role: 'tenant_admin', path: `/console/sessions/${id}` });
    const links = await until(
      () => {
        const found = [...root(el).querySelectorAll<HTMLAnchorElement>('.actions a.button')];
        return found.length === 2 ? found : null;
      },
      4000,
      'the two links',
    );
    expect(new URL(links[0]!.href).search).to.equal(`?q=${id}`);
    el.navigate(new URL(links[1]!.href).pathname + new URL(links[1]!.href).search);
    await until(
      () => backend.requests.some((r) => r.path === '/v1/audit-events' && r.query.get('target_id') === id),
      4000,
      'the audit log of the session',
    );
    const asked = backend.requests.filter((r) => r.path === '/v1/audit-events').at(-1)!;
    expect(asked.query.get('target_type')).to.equal('session');
  });

  it("exports the queue's sessions under its search and reason filter as CSV", async () => {
    // The evidence images are blob: URLs too: the download is the blob behind the clicked link.
    const saved: Blob[] = [];
    const created = URL.createObjectURL;
    const click = HTMLAnchorElement.prototype.click;
    const blobs = new Map<string, Blob>();
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      const url = created.call(URL, blob);
      blobs.set(url, blob as Blob);
      return url;
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      const blob = blobs.get(this.href);
      if (this.download && blob) saved.push(blob);
    };
    try {
      const { el, backend } = await mountConsole({
        role: 'reviewer',
        path: '/console/reviews?reason=face_match_uncertain',
      });
      await until(() => queueIds(el).length === 2, 4000, 'the filtered queue');
      root(el).querySelector<HTMLButtonElement>('#queue-export')!.click();
      await until(() => saved.length === 1, 4000, 'the download');
      const asked = backend.requests.find((r) => r.path === '/v1/exports/sessions')!;
      expect(asked.query.get('status')).to.equal('review_required');
      expect(asked.query.get('reason_code')).to.equal('face_match_uncertain');
      const rows = (await saved[0]!.text()).trim().split(/\r\n/).slice(1);
      expect(rows.map((row) => row.split(',')[0])).to.deep.equal(queueIds(el));
    } finally {
      URL.createObjectURL = created;
      HTMLAnchorElement.prototype.click = click;
    }
  });

  it('exports the filtered sessions list as CSV with the same filters, from a blob: URL', async () => {
    const saved: { blob: Blob; name: string }[] = [];
    const created = URL.createObjectURL;
    const click = HTMLAnchorElement.prototype.click;
    let lastBlob: Blob | null = null;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      lastBlob = blob as Blob;
      return created.call(URL, blob);
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.download && lastBlob) saved.push({ blob: lastBlob, name: this.download });
    };
    try {
      const { el, backend } = await mountConsole({
        role: 'reviewer',
        path: '/console/sessions?status=review_required&reason=face_match_uncertain',
      });
      const listed = await until(
        () => {
          const rows = [...root(el).querySelectorAll('tbody th a')].map((a) => a.textContent!.trim());
          return rows.length > 0 ? rows : null;
        },
        4000,
        'the filtered list',
      );
      root(el).querySelector<HTMLButtonElement>('#export')!.click();
      await until(() => saved.length === 1, 4000, 'the download');
      expect(saved[0]!.name).to.match(/^sessions-sandbox-\d{4}-\d{2}-\d{2}\.csv$/);
      const asked = backend.requests.find((r) => r.path === '/v1/exports/sessions')!;
      expect(asked.query.get('status')).to.equal('review_required');
      expect(asked.query.get('reason_code')).to.equal('face_match_uncertain');
      expect(asked.headers.get('authorization')).to.match(/^Bearer /);
      const lines = (await saved[0]!.blob.text()).trim().split(/\r\n/);
      expect(lines[0]!.split(',')[0]).to.equal('session_id');
      expect(lines.slice(1).map((line) => line.split(',')[0])).to.deep.equal(listed);
    } finally {
      URL.createObjectURL = created;
      HTMLAnchorElement.prototype.click = click;
    }
  });
});
