/**
 * The test pages' side of the demo's end-to-end tests (test/browser/e2e/demo-*.test.ts): the server
 * commands of demo-e2e-plugin.ts, and one whole verification by the visitor of demo-visitor.ts, in the
 * demo's own tab, from the shop's sign-up form to the verified name on its page.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { DemoE2eCommand, DemoStarted, DemoTarget } from './demo-e2e-plugin.ts';
import { describeTab, documentFileInput, type PassportFields, visitorMove } from './demo-visitor.ts';

const PASSPORT = 'documents/passport-astronaut.jpg';
/** A first start builds the database and, on the server, the models load: minutes on a loaded runner. */
export const START_MS = 200_000;
/**
 * One verification, the review included. Alone on a 2-core runner the offline flow takes about 55 s; in
 * CI, beside the other engines' browsers and servers, one ran out of 240 s on the liveness screen.
 */
export const FLOW_MS = 360_000;

/** One server command; one the page gave up on (20 s) is asked again: it waits for the same work. */
export async function command<T>(name: DemoE2eCommand, payload: object = {}, budgetMs = 60_000): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (;;) {
    try {
      return (await executeServerCommand<T, object>(name, payload)) as T;
    } catch (error) {
      if (performance.now() > deadline || !/Did not receive a server response/.test(String(error))) {
        throw error;
      }
    }
  }
}

/** Opens the shop's page in the demo tab; asked again while it opens, the plugin waits for the same tab. */
function openShopPage(target: DemoTarget, started: DemoStarted): Promise<unknown> {
  return command('idv-demo-e2e:open', { target, path: started.pagePath }, OPEN_MS);
}

/** A new tab on a loaded runner, the navigation's own 15 s included. */
const OPEN_MS = 120_000;

export async function inTab<A, T>(script: (arg: A) => T, arg: A): Promise<T | null> {
  const answer = await command<{ value: T | null }>('idv-demo-e2e:eval', { script: script.toString(), arg });
  return answer.value;
}

export function startDemo(target: DemoTarget): Promise<DemoStarted> {
  return command<DemoStarted>('idv-demo-e2e:start', { target }, START_MS);
}

export async function passportFields(): Promise<PassportFields> {
  const manifest = (await (await fetch('/test/fixtures/vision/documents/manifest.json')).json()) as {
    images: { file: string; fields: PassportFields | null }[];
  };
  const fields = manifest.images.find((image) => image.file === 'passport-astronaut.jpg')?.fields;
  if (!fields) throw new Error('passport-astronaut.jpg states no fields in the fixtures manifest');
  return fields;
}

export interface Verified {
  name: string;
  status: string;
  events: string;
  sessionId: string;
  url: string;
}

/**
 * Opens the shop's page in the demo tab and lets the visitor verify there (`embed`: the widget in the
 * page; `redirect`: the hosted page and back) until the page shows the verified name. `variant` makes the
 * passport photo a new JPEG, as a second phone photo of the same document would be.
 */
export async function verifyInDemo(
  target: DemoTarget,
  started: DemoStarted,
  mode: 'embed' | 'redirect',
  variant: number,
): Promise<{ verified: Verified; trail: string[]; ms: number }> {
  const fields = await passportFields();
  const begun = performance.now();
  await openShopPage(target, started);
  const trail: string[] = [];
  let lastScreen = '';
  const deadline = begun + FLOW_MS;
  for (;;) {
    const move = (await inTab(visitorMove, { mode, userId: 'astronaut', fields })) as Record<
      string,
      unknown
    > | null;
    if (move?.['done']) return { verified: move['done'] as Verified, trail, ms: performance.now() - begun };
    if (move?.['failed']) throw new Error(`the shop page says: ${String(move['failed'])}`);
    if (move?.['upload']) {
      await command('idv-demo-e2e:upload', {
        script: documentFileInput.toString(),
        fixture: PASSPORT,
        variant,
      });
    }
    const waiting = move?.['waiting'] ? String(move['waiting']) : 'navigation';
    // Each screen with the second it was reached: a flow that runs out of time says where the time went.
    if (lastScreen !== waiting) {
      lastScreen = waiting;
      trail.push(`${waiting} @${Math.round((performance.now() - begun) / 1000)} s`);
    }
    const refused = /^the shop after (rejected|review_required|expired|cancelled)$/.exec(waiting);
    if (refused) {
      // Not worth waiting out the deadline: say at once what the models decided, and why.
      const tab = await inTab(describeTab, null);
      // Redirected back, the tab names the session; embedded, the plugin takes the tenant's newest.
      const sessionId = /session_id=([\w-]+)/.exec(tab ?? '')?.[1];
      const decision = await command('idv-demo-e2e:decision', {
        target,
        ...(sessionId ? { sessionId } : {}),
      }).catch((error) => String(error));
      throw new Error(
        `the session ended ${refused[1]} (${trail.join(' → ')}): ${JSON.stringify(decision)}; the tab shows ${tab}`,
      );
    }
    if (performance.now() > deadline) {
      throw new Error(
        `no verified name after ${FLOW_MS} ms (${trail.join(' → ')}); the tab shows ${await inTab(describeTab, null)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * The whole check of one way through the demo: approved, the name read from the passport, the signed
 * `session.approved` among the webhooks the backend accepted, back on the shop's page, and nothing
 * uncaught or refused by the CSP in the tab.
 */
export async function expectVerified(
  target: DemoTarget,
  started: DemoStarted,
  mode: 'embed' | 'redirect',
  variant: number,
): Promise<void> {
  const { verified, trail, ms } = await verifyInDemo(target, started, mode, variant);
  // On the real server, what its gates and models answered each liveness attempt (the server's log).
  const decision =
    target === 'server'
      ? await command<{ liveness?: Record<string, unknown>[] } | null>('idv-demo-e2e:decision', {
          target,
          ...(verified.sessionId ? { sessionId: verified.sessionId } : {}),
        }).catch(() => null)
      : null;
  const attempts = decision?.liveness?.map((record) =>
    record['message'] === 'liveness judged'
      ? `judged ${record['accepted'] ? 'accepted' : `refused (${JSON.stringify(record['failure'])}: ${JSON.stringify(record['actions'])})`}`
      : `sent back (${String(record['reason'])})`,
  );
  console.log(
    `demo ${target} ${mode}: verified in ${Math.round(ms)} ms (${trail.join(' → ')})${attempts ? `; liveness attempts: ${attempts.join(', ')}` : ''}`,
  );
  const fields = await passportFields();
  expect(verified.status).to.equal('approved');
  // The name the backend read from `GET /v1/identities/:id`, once the API said approved.
  expect(verified.name.toUpperCase()).to.equal(`${fields.first_name} ${fields.last_name}`.toUpperCase());
  expect(verified.events.split(', ')).to.include('session.approved');
  expect(verified.url, 'back on the shop page').to.equal(started.pagePath);
  expect(
    trail.some((entry) => entry.startsWith('document_front @')),
    `the visitor went through the document step (${trail.join(' → ')})`,
  ).to.equal(true);
  const problems = await command<string[]>('idv-demo-e2e:page-problems');
  expect(problems, 'no uncaught error and no CSP violation in the demo tab').to.deep.equal([]);
}

/** A delivery without a valid signature, posted to the shop's webhook endpoint, must be refused (400). */
export async function expectForgedWebhookRefused(target: DemoTarget, started: DemoStarted): Promise<void> {
  await openShopPage(target, started);
  // The page must be up (offline: the Service Worker that carries the backend) before it is asked.
  const deadline = performance.now() + 90_000;
  while (!(await inTab(() => document.documentElement.dataset['demoReady'] ?? null, null))) {
    if (performance.now() > deadline) throw new Error('the demo page never became ready');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  expect(await command<number>('idv-demo-e2e:forged-webhook', { target })).to.equal(400);
}
