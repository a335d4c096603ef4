/**
 * Screenshots of the widget's screens, the hosted page and the demo, in light and dark (issue #16):
 * `node scripts/screenshots.ts` rewrites docs/screenshots/<name>-<light|dark>.png. Re-runnable: it builds
 * what `npm start` would build if the build is missing or stale, starts everything it needs and stops it.
 *
 * - The real server (`server/node.ts`, development mode, embedded database in a temporary directory, on a
 *   free port: test/support-server/e2e-server.ts) and real sandbox sessions created with the demo
 *   tenant's key, opened at their `verify_url`: the hosted page, which is the widget full screen.
 * - Debian's Chromium through puppeteer-core, with Chromium's fake camera playing the synthetic ID card
 *   (test/fixtures/fake-camera.ts): the document screens show a live camera and auto-capture fires as it
 *   does for a person. The liveness screens show the same feed (one file plays for every camera).
 * - The review and result screens come from a second and third session whose steps the sandbox
 *   completed (`POST /v1/sandbox/sessions/:id/simulate {action: complete_steps}`), with a forced outcome:
 *   the synthetic card carries no face, so its liveness would (rightly) not pass.
 * - Light and dark are the same screen under `prefers-color-scheme` (the hosted page's widget is
 *   `theme="auto"`), shot one after the other.
 * - The demo: the server's `/demo/` when it serves one, else the offline demo (demo/, Vite with its MSW
 *   worker) started here.
 *
 * A 390×844 mobile viewport at device scale 1, PNGs re-encoded with a palette, so the gallery stays small.
 *
 * @example
 *   node scripts/screenshots.ts              # everything
 *   node scripts/screenshots.ts --only=consent,demo
 */
import { spawnSync } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer, { type Browser, type Page, type Viewport } from 'puppeteer-core';
import sharp from 'sharp';
import { writeFakeCamera } from '../test/fixtures/fake-camera.ts';
import { CHROMIUM_FLAGS, findChromium } from '../test/support-server/chromium.ts';
import { type E2eServer, startE2eServer } from '../test/support-server/e2e-server.ts';
import { TenantBackend } from '../test/support-server/tenant-backend.ts';

const root = resolve(import.meta.dirname, '..');
const OUT_DIR = join(root, 'docs/screenshots');
const MOBILE: Viewport = { width: 390, height: 844, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
const DESKTOP: Viewport = { width: 1280, height: 800, deviceScaleFactor: 1 };
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only ? new Set(values.only.split(',')) : null;
const written: string[] = [];

/** Re-encodes Chromium's PNG with a palette (screens are flat UI colours) and writes it. */
async function save(name: string, png: Uint8Array): Promise<void> {
  const file = join(OUT_DIR, `${name}.png`);
  const small = await sharp(png)
    .png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 })
    .toBuffer();
  writeFileSync(file, small);
  written.push(`${name}.png`);
  console.log(`  ${name}.png  ${(small.length / 1024).toFixed(0)} KB`);
}

/** The current screen in light then in dark; `settle` waits for whatever the scheme change re-renders. */
async function shoot(page: Page, name: string, schemes: readonly Scheme[] = SCHEMES): Promise<void> {
  if (only && !only.has(name)) return;
  for (const scheme of schemes) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    // Two frames: the style recalculation, then the paint.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
    );
    await save(`${name}-${scheme}`, await page.screenshot({ type: 'png' }));
  }
}

/** The widget's screen (`consent`, `document_front`, `result_approved`, …) or its phase. */
function screenOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.querySelector('id-verify') as
      | (Element & { state?: { phase: string; screen?: string; status?: string } })
      | null;
    const state = el?.state;
    if (!state) return 'none';
    if (state.phase === 'step') return state.screen ?? 'step';
    if (state.phase === 'result') return `result_${state.status}`;
    return state.phase;
  });
}

async function waitFor<T>(what: string, check: () => Promise<T | null | false | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function onScreen(page: Page, screen: string, ms = 30_000): Promise<void> {
  await waitFor(`screen ${screen}`, async () => (await screenOf(page)) === screen, ms).catch(async () => {
    throw new Error(`timed out waiting for screen ${screen}: on ${await screenOf(page)}`);
  });
}

/** A button inside the widget's shadow roots whose text matches, once enabled; clicked like a user. */
async function clickButton(page: Page, scope: string, text: RegExp, ms = 15_000): Promise<void> {
  const handle = await waitFor(
    `button ${text} in ${scope}`,
    async () => {
      for (const button of await page.$$(`${scope} >>> button`)) {
        const [label, disabled, visible] = await button.evaluate((b) => [
          b.textContent ?? '',
          (b as HTMLButtonElement).disabled,
          b.getClientRects().length > 0,
        ]);
        if (visible && !disabled && text.test(label as string)) return button;
      }
      return null;
    },
    ms,
  );
  await handle.click();
}

/** A `<video>` in `scope` that is playing frames (the camera is on). */
async function cameraLive(page: Page, scope: string): Promise<void> {
  await waitFor(`camera in ${scope}`, async () => {
    const video = await page.$(`${scope} >>> video`);
    return video ? video.evaluate((v) => (v as HTMLVideoElement).videoWidth > 0) : false;
  });
  // The guide overlay animates in; let it land.
  await new Promise((done) => setTimeout(done, 400));
}

async function newPage(browser: Browser, viewport: Viewport = MOBILE): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  return page;
}

/**
 * From consent to the liveness camera, as an end-user goes, in one colour scheme: once per scheme, each
 * on its own session, because auto-capture does not wait for a second screenshot of a camera screen.
 */
async function collectingScreens(browser: Browser, tenant: TenantBackend, scheme: Scheme): Promise<void> {
  const session = await tenant.createSession({ country: 'FRA', flow: 'user', tier: 'tier2' });
  const page = await newPage(browser);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  const shootScreen = (name: string) => shoot(page, name, [scheme]);
  await page.goto(session.verify_url, { waitUntil: 'networkidle0' });
  await onScreen(page, 'consent');
  await shootScreen('consent');

  const consent = 'id-verify >>> idv-consent-step';
  await (await page.waitForSelector(`${consent} >>> #agree`))?.click();
  await clickButton(page, consent, /Agree/);
  await onScreen(page, 'document_type');
  await shootScreen('document-type');

  await (
    await page.waitForSelector('id-verify >>> idv-document-step >>> button[data-type="id_card"]')
  )?.click();
  const capture = 'id-verify >>> idv-document-step >>> idv-capture-view';
  for (const side of ['front', 'back'] as const) {
    await onScreen(page, `document_${side}`);
    await cameraLive(page, capture);
    await shootScreen(`document-${side}`);
    // The on-device checks fire the shutter after about a second of good frames; then the preview.
    await page.waitForSelector(`${capture} >>> img[part~="preview"]`, { timeout: 30_000 });
    if (side === 'front') await shootScreen('document-preview');
    await clickButton(page, capture, /Use this photo/);
  }

  await onScreen(page, 'document_details', 90_000);
  const details = 'id-verify >>> idv-document-step';
  await waitFor(
    'the details form or the summary of what was read',
    async () => (await page.$(`${details} >>> form`)) ?? (await page.$(`${details} >>> dl.read`)),
  );
  await shootScreen('document-details');
  if (await page.$(`${details} >>> #first_name`)) {
    const typed: Record<string, string> = {
      first_name: 'Erika',
      last_name: 'Mustermann',
      date_of_birth: '1990-08-12',
      document_number: 'T22000129',
      expiry_date: '2031-01-01',
    };
    for (const [id, value] of Object.entries(typed)) {
      const input = await page.$(`${details} >>> #${id}`);
      if (!input) continue;
      await input.evaluate((element, text) => {
        const field = element as HTMLInputElement;
        if (field.value !== '') return;
        field.value = text;
        field.dispatchEvent(new Event('input', { bubbles: true }));
        field.dispatchEvent(new Event('change', { bubbles: true }));
      }, value);
    }
    await clickButton(page, details, /Confirm details/);
  } else {
    await clickButton(page, details, /Yes, continue/);
  }

  await onScreen(page, 'liveness', 60_000);
  const liveness = 'id-verify >>> idv-liveness-step';
  await waitFor('liveness Start', async () => (await page.$$(`${liveness} >>> button`)).length > 0);
  await shootScreen('liveness-intro');
  await clickButton(page, liveness, /Start/, 30_000);
  await cameraLive(page, liveness);
  await shootScreen('liveness-camera');
  await page.close();
}

/** Sessions 2 and 3: the steps completed by the sandbox, then the review, processing and the result. */
async function decisionScreens(
  browser: Browser,
  tenant: TenantBackend,
  server: E2eServer,
  outcome: 'approved' | 'rejected',
): Promise<void> {
  const session = await tenant.createSession({
    country: 'FRA',
    flow: 'user',
    tier: 'tier2',
    sandbox: {
      outcome,
      processing_delay_ms: 2500,
      ...(outcome === 'rejected' ? { reason_codes: ['document_expired'] } : {}),
    },
  });
  const simulated = await fetch(`${server.baseUrl}/v1/sandbox/sessions/${session.session_id}/simulate`, {
    method: 'POST',
    headers: { 'x-api-key': server.sandboxKey, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'complete_steps' }),
  });
  if (!simulated.ok) throw new Error(`simulate complete_steps answered ${simulated.status}`);
  const page = await newPage(browser);
  await page.goto(session.verify_url, { waitUntil: 'networkidle0' });
  await onScreen(page, 'review');
  if (outcome === 'approved') await shoot(page, 'review');
  await clickButton(page, 'id-verify >>> idv-review-step', /^\s*Submit\s*$/);
  if (outcome === 'approved') {
    await waitFor('processing', async () => (await screenOf(page)) !== 'review', 15_000);
    await new Promise((done) => setTimeout(done, 300));
    await shoot(page, 'processing');
  }
  await onScreen(page, `result_${outcome}`, 60_000);
  await new Promise((done) => setTimeout(done, 300));
  await shoot(page, `result-${outcome}`);
  await page.close();
}

/** The hosted page as a desktop browser shows it: the widget centred on the page's own background. */
async function hostedDesktop(browser: Browser, tenant: TenantBackend): Promise<void> {
  const session = await tenant.createSession({ country: 'FRA', flow: 'user', tier: 'tier2' });
  const page = await newPage(browser, DESKTOP);
  await page.goto(session.verify_url, { waitUntil: 'networkidle0' });
  await onScreen(page, 'consent');
  await shoot(page, 'hosted-page-desktop');
  await page.close();
}

/** Where the demo is: the server's `/demo/` if it has one, else the offline demo served here by Vite. */
async function demoUrl(server: E2eServer): Promise<{ url: string; close(): Promise<void>; kind: string }> {
  const served = await fetch(`${server.baseUrl}/demo/`).catch(() => null);
  if (served?.ok && (served.headers.get('content-type') ?? '').includes('text/html')) {
    return {
      url: `${server.baseUrl}/demo/`,
      close: async () => {},
      kind: 'the server (`npm start`) at /demo/',
    };
  }
  const { createServer } = await import('vite');
  const port = await freePort();
  const vite = await createServer({
    configFile: join(root, 'demo/vite.config.ts'),
    server: { port, strictPort: true },
    logLevel: 'warn',
  });
  await vite.listen();
  return {
    url: `http://localhost:${port}/`,
    close: () => vite.close(),
    kind: 'the offline demo (`npm run demo:offline`: Vite and the MSW worker, no server)',
  };
}

async function demoScreens(browser: Browser, server: E2eServer): Promise<string> {
  const demo = await demoUrl(server);
  try {
    for (const [name, viewport] of [
      ['demo', MOBILE],
      ['demo-desktop', DESKTOP],
    ] as const) {
      const page = await newPage(browser, viewport);
      // Vite's dev server keeps a socket open (no network idle) and compiles on first request: wait for
      // the form to be enabled (the page's script ran and its backend answered) instead.
      await page.goto(demo.url, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForSelector('#start fieldset:not([disabled]) button[value="embed"]', {
        timeout: 120_000,
      });
      await shoot(page, name);
      if (name === 'demo-desktop') {
        // The shop page with the widget embedded in it (its "Verify here" button).
        await page.click('#start button[value="embed"]');
        await onScreen(page, 'consent', 60_000);
        await shoot(page, 'demo-embedded-desktop');
      }
      await page.close();
    }
  } finally {
    await demo.close();
  }
  return demo.kind;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? done(address.port) : fail(new Error('no port')),
      );
    });
  });
}

const COLLECTING_SHOTS = [
  'consent',
  'document-type',
  'document-front',
  'document-preview',
  'document-back',
  'document-details',
  'liveness-intro',
  'liveness-camera',
];

/** One gallery entry: the file stem and what the screen shows (its alt text). */
const GALLERY: readonly { name: string; title: string; alt: string }[] = [
  {
    name: 'consent',
    title: 'Consent',
    alt: 'The consent screen: what will be asked for and why, a checkbox to agree, Agree and continue, and No, cancel.',
  },
  {
    name: 'document-type',
    title: 'Document type',
    alt: 'The documents accepted for the country to choose from: passport, identity card, driving licence, residence permit.',
  },
  {
    name: 'document-front',
    title: 'Document, front (camera)',
    alt: 'The live camera with an identity card inside a card-shaped guide frame, a hint on how to lay it, and Take photo or Upload a file instead.',
  },
  {
    name: 'document-preview',
    title: 'Document, captured photo',
    alt: 'The photo of the card front that auto-capture took, with Use this photo and Retake.',
  },
  {
    name: 'document-back',
    title: 'Document, back (camera)',
    alt: 'The live camera asking for the back of the ID card inside the guide frame.',
  },
  {
    name: 'document-details',
    title: 'Details',
    alt: 'The form to check the details of the document: machine-readable zone, names, date of birth, nationality, document number.',
  },
  {
    name: 'liveness-intro',
    title: 'Liveness, introduction',
    alt: 'The selfie check explained: three quick actions in front of the camera, and a Start button.',
  },
  {
    name: 'liveness-camera',
    title: 'Liveness, camera',
    alt: 'The camera inside an oval face guide with the current action (here the fake camera shows the test card, not a face) and a Capture button.',
  },
  {
    name: 'review',
    title: 'Review',
    alt: 'Review and submit: the completed steps (consent, identity document, selfie check), the sandbox outcome picker and Submit.',
  },
  {
    name: 'processing',
    title: 'Processing',
    alt: 'Checking your details: a spinner while the submitted verification is checked.',
  },
  {
    name: 'result-approved',
    title: 'Result: approved',
    alt: 'You are verified: the result screen with a Close button.',
  },
  {
    name: 'result-rejected',
    title: 'Result: rejected',
    alt: 'We could not verify you: the result screen saying the company will tell you what to do next, with a Close button.',
  },
  {
    name: 'hosted-page-desktop',
    title: 'Hosted page (desktop)',
    alt: 'The hosted verification page at /verify/<token> in a desktop browser, the widget centred.',
  },
  {
    name: 'demo',
    title: 'Demo (mobile)',
    alt: 'The demo shop page: a shop user id, a sandbox outcome to force, and buttons to verify here or on the hosted page.',
  },
  {
    name: 'demo-desktop',
    title: 'Demo (desktop)',
    alt: 'The demo shop page in a desktop browser, with the verification options.',
  },
  {
    name: 'demo-embedded-desktop',
    title: 'Demo, widget embedded (desktop)',
    alt: 'The demo shop page with the id-verify widget embedded below its form, on the consent screen.',
  },
];

function writeGallery(demoKind: string | undefined): void {
  // A run limited by --only keeps what the last full run said about the demo.
  const gallery = join(root, 'docs/screenshots.md');
  const previousDemoLine = existsSync(gallery)
    ? readFileSync(gallery, 'utf8')
        .split('\n')
        .find((line) => line.startsWith('The demo shots are of'))
    : undefined;
  const demoLine = demoKind
    ? `The demo shots are of ${demoKind}. The shop page has no dark styles and embeds the widget without a \`theme\` (so light), hence its light and dark shots look the same; the hosted page's widget follows the scheme.`
    : (previousDemoLine ?? '');
  const present = new Set(readdirSync(OUT_DIR));
  const rows = GALLERY.filter(({ name }) => SCHEMES.every((scheme) => present.has(`${name}-${scheme}.png`)));
  const missing = GALLERY.filter((entry) => !rows.includes(entry)).map(({ name }) => name);
  const total = [...present]
    .filter((file) => file.endsWith('.png'))
    .reduce((sum, file) => sum + statSync(join(OUT_DIR, file)).size, 0);
  const lines = [
    '# Screenshots',
    '',
    'Every screen of the widget on the hosted page, the hosted page on a desktop and the demo, in light and',
    'dark (`prefers-color-scheme`; the hosted page\'s widget uses `theme="auto"`). Mobile shots are 390×844',
    'CSS pixels at device scale 1.',
    '',
    'Made by `node scripts/screenshots.ts` (re-run it after a visual change; `--only=consent,review` for a',
    'few): it builds what `npm start` builds if needed, starts the real server on a temporary database,',
    "creates sandbox sessions with the development tenant's key and walks them in Debian's Chromium with",
    "Chromium's fake camera playing a synthetic ID card (so the document screens show a live camera and",
    'auto-capture fires). The review and result screens come from sessions whose steps the sandbox completed',
    'with a forced outcome: the synthetic card has no face, so its liveness would not pass. Sandbox sessions',
    'show the sandbox banner; production sessions do not.',
    '',
    demoLine,
    '',
    `${rows.length * 2} images, ${(total / 1024).toFixed(0)} KB in all.`,
    '',
    '| screen | light | dark |',
    '| --- | --- | --- |',
    ...rows.map(
      ({ name, title, alt }) =>
        `| ${title} | ![${alt} Light theme.](screenshots/${name}-light.png) | ![${alt} Dark theme.](screenshots/${name}-dark.png) |`,
    ),
  ];
  if (missing.length) lines.push('', `Not captured in the last run: ${missing.join(', ')}.`);
  writeFileSync(gallery, `${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  // What `npm start` runs first (prestart): builds the widget, hosted page and console if missing or stale.
  const build = spawnSync(process.execPath, [join(root, 'scripts/ensure-build.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed');
  const camera = writeFakeCamera();
  const server = await startE2eServer();
  const browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      ...CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
      '--hide-scrollbars',
      '--lang=en-US',
    ],
  });
  let demoKind: string | undefined;
  const failures: string[] = [];
  const attempt = async (what: string, shots: readonly string[], run: () => Promise<unknown>) => {
    if (only && !shots.some((shot) => only.has(shot))) return;
    console.log(what);
    try {
      await run();
    } catch (error) {
      failures.push(`${what}: ${(error as Error).message}`);
      console.error(`  failed: ${(error as Error).message}`);
    }
  };
  try {
    const tenant = new TenantBackend(server.baseUrl, server.sandboxKey);
    for (const scheme of SCHEMES) {
      await attempt(`widget, consent to liveness (camera, ${scheme})`, COLLECTING_SHOTS, () =>
        collectingScreens(browser, tenant, scheme),
      );
    }
    await attempt('widget, review to approval', ['review', 'processing', 'result-approved'], () =>
      decisionScreens(browser, tenant, server, 'approved'),
    );
    await attempt('widget, rejection', ['result-rejected'], () =>
      decisionScreens(browser, tenant, server, 'rejected'),
    );
    await attempt('hosted page, desktop', ['hosted-page-desktop'], () => hostedDesktop(browser, tenant));
    await attempt('demo', ['demo', 'demo-desktop', 'demo-embedded-desktop'], async () => {
      demoKind = await demoScreens(browser, server);
    });
  } finally {
    await browser.close();
    await server.close();
  }
  writeGallery(demoKind);
  console.log(`\n${written.length} screenshots in docs/screenshots/, gallery docs/screenshots.md`);
  if (failures.length) {
    console.error(`\nNot captured:\n${failures.join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
