// @ts-check
/**
 * Browser tests (`npm run test:browser`): Chromium, Firefox and WebKit from the machine, never downloaded
 * ones. IDV_BROWSERS=chromium,firefox,webkit picks the engines (test/support-server/engines.ts); unset,
 * every installed engine runs and a missing one is skipped with a message.
 *
 * Chromium's camera is its fake capture device playing a synthetic ID card written by
 * test/fixtures/fake-camera.ts just before the run; Firefox and WebKit have fake cameras too, but they
 * show a generated pattern, not a file. The permission prompt is auto-accepted in all three, so
 * getUserMedia streams real frames without a human or a webcam. The groups that need the face in front of
 * the camera or the denying prompt run in Chromium alone; so do single tests that need the card in front
 * of the camera or the DevTools protocol (they skip themselves in the other engines).
 */
import { consoleUnderCsp } from './test/support-server/console-under-csp.mjs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';
import { hostedPageCsp } from './server/http/pages/hosted/hosted-csp.ts';
import { nodeVisionAssets } from './server/runtime/node/node-vision-assets.ts';
import { writeFaceCamera, writeFakeCamera, writePassportCamera } from './test/fixtures/fake-camera.ts';
import { CHROMIUM_FLAGS, findChromium } from './test/support-server/chromium.ts';
import { consoleE2ePlugin } from './test/support-server/console-e2e-plugin.ts';
import { secondFactorE2ePlugin } from './test/support-server/second-factor-e2e-plugin.ts';
import { demoE2ePlugin } from './test/support-server/demo-e2e-plugin.ts';
import { e2eServerPlugin } from './test/support-server/e2e-plugin.ts';
import { findFirefox, findMiniBrowser, findWebKitWebDriver } from './test/support-server/engine-paths.ts';
import { selectEngines } from './test/support-server/engines.ts';
import { firefoxLauncher } from './test/support-server/firefox.ts';
import { webkitLauncher } from './test/support-server/webkit.ts';

const { engines, skipped } = selectEngines();
for (const reason of skipped) console.warn(`browser suites: ${reason}`);
const withChromium = engines.includes('chromium');
/**
 * IDV_SKIP_GROUPS=face-camera (comma-separated): groups this run leaves out. `npm test` runs the
 * face-camera group in a stage of its own, alone (scripts/test.ts, faceCameraStage).
 */
const skippedGroups = new Set((process.env.IDV_SKIP_GROUPS ?? '').split(',').filter(Boolean));

const fakeVideo = writeFakeCamera();
/**
 * The face camera of the `face-camera` group: the astronaut's pose stills in a loop. Without the stills
 * the group still starts (on the card camera) and its test fails, saying the fixtures are missing.
 */
const faceVideo = await writeFaceCamera().catch(() => fakeVideo);
/**
 * The passport camera of the `passport-camera` group: a specimen passport on a desk at an ordinary
 * distance (test/fixtures/camera/passport-on-desk.jpg). Without the still the group starts on the card
 * camera and its test fails, saying what the server read.
 */
const passportVideo = await writePassportCamera().catch(() => fakeVideo);

/**
 * Headless Debian Chromium with the fake camera. `cameraPrompt` is how the fake permission prompt
 * answers getUserMedia: `accept` for every suite but one, `deny` (the user clicking "Block") for the
 * camera-denied group, which is why that group needs its own browser.
 */
function chromium(cameraPrompt, video = fakeVideo) {
  return chromeLauncher({
    // The launcher's own puppeteer-core, passed explicitly so that the summary says "Chromium".
    puppeteer: puppeteerCore,
    launchOptions: {
      executablePath: findChromium(),
      headless: true,
      args: [
        ...CHROMIUM_FLAGS,
        cameraPrompt === 'deny' ? '--use-fake-ui-for-media-stream=deny' : '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    },
  });
}

/** The main group's browsers: each selected engine with its fake camera and its prompt accepted. */
function engineLaunchers() {
  return engines.map((engine) => {
    if (engine === 'chromium') return chromium('accept');
    if (engine === 'firefox') return firefoxLauncher(/** @type {string} */ (findFirefox()));
    return webkitLauncher(
      /** @type {string} */ (findWebKitWebDriver()),
      /** @type {string} */ (findMiniBrowser()),
    );
  });
}

const CAMERA_DENIED_FILES = 'test/browser/e2e/camera-denied-*.test.ts';
/** The one model-heavy browser file: the face model in the page, the real vision engine on the server. */
const FACE_CAMERA_FILES = 'test/browser/e2e/face-camera-*.test.ts';
/**
 * The demo shop end to end (on `npm start`'s server and offline on the mocks): the real checks judge its
 * selfie, so it needs the astronaut in front of the camera too.
 */
const DEMO_FILES = 'test/browser/e2e/demo-*.test.ts';
/** The passport on a desk in front of the camera, read by the real server (issue #22's acceptance). */
const PASSPORT_CAMERA_FILES = 'test/browser/e2e/passport-camera-*.test.ts';

/** The hosted page's CSP (server/http/pages/hosted/hosted-csp.ts) minus the nonce: nothing inline is allowed. */
const STRICT_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; " +
  "media-src 'self' blob: mediastream:; connect-src 'self'; base-uri 'none'; form-action 'none'";

/**
 * `/__csp__/page.html`: `<id-verify>` on a page served under a CSP that forbids inline script and style,
 * for test/browser/csp.test.ts.
 */
async function cspTestPage(ctx, next) {
  if (ctx.path !== '/__csp__/page.html') return next();
  ctx.set('content-security-policy', STRICT_CSP);
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><title>CSP</title>
<script src="/test/browser/support/csp-violations.js"></script>
<script type="module" src="/src/cdn.ts"></script></head>
<body><main><id-verify locale="en" verify-url="${ctx.query.url ?? ''}"></id-verify></main></body></html>`;
}

/**
 * `/__vision__/sdk/vision/…`: the liveness face model from node_modules, as the real server serves it
 * (server/runtime/node/node-vision-assets.ts), for the face-camera test to load it on this origin (under the
 * hosted CSP too). Not at `/sdk/vision/`: a widget other suites mount with a link on this origin must not
 * download the model by accident, it falls back to timed capture on the 404.
 */
const VISION_PREFIX = '/__vision__/';
const visionAssets = nodeVisionAssets();
async function visionFiles(ctx, next) {
  if (!ctx.path.startsWith(`${VISION_PREFIX}sdk/vision/`)) return next();
  const asset = await visionAssets.get(ctx.path.slice(VISION_PREFIX.length));
  if (!asset) return next();
  ctx.set('content-type', asset.headers.get('content-type') ?? 'application/octet-stream');
  ctx.body = Buffer.from(await asset.arrayBuffer());
}

/**
 * `/__csp__/face-guide.html`: the face guide loading the model from this origin under the hosted page's
 * own CSP (server/http/pages/hosted/hosted-csp.ts, framing allowed for this origin), for the face-camera test.
 */
async function cspFaceGuidePage(ctx, next) {
  if (ctx.path !== '/__csp__/face-guide.html') return next();
  ctx.set('content-security-policy', hostedPageCsp('unused-nonce', [ctx.origin]));
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><title>Face guide under CSP</title>
<script src="/test/browser/support/csp-violations.js"></script>
<script type="module" src="/test/browser/support/load-face-guide.ts"></script></head><body></body></html>`;
}

export default {
  files: [
    'test/browser/**/*.test.ts',
    'test/browser/console/**/*.csp-test.ts',
    `!${CAMERA_DENIED_FILES}`,
    `!${FACE_CAMERA_FILES}`,
    `!${DEMO_FILES}`,
    `!${PASSPORT_CAMERA_FILES}`,
  ],
  nodeResolve: true,
  // One page at a time in each browser: Chromium pauses requestAnimationFrame in background tabs, and the
  // capture loop (like a real camera page) runs on it. Each engine's browser still runs beside the others.
  concurrency: 1,
  testsFinishTimeout: 300_000,
  // Firefox and WebKit take longer to start than Chromium, much longer on a busy 2-core runner (the
  // 30 s default was seen to run out).
  browserStartTimeout: 120_000,
  // Mocha's budget for a test or hook that sets none: what a hung test costs, not a measure of speed (tests
  // that judge time assert it themselves). 10 s ran out on a 2-core runner beside two other engines: WebKit
  // mounting the camera guide, and a hook loading the 44 locales' modules, which the test server compiles
  // on first request.
  testFramework: { config: { timeout: 30_000 } },
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2023', tsconfig: 'tsconfig.json' }),
    // test/browser/e2e: the real server (server/node.ts), started on the first e2e command only.
    e2eServerPlugin(),
    // test/browser/console/e2e-review.test.ts: another real server, a webhook receiver, the console's tab.
    consoleE2ePlugin(),
    // test/browser/console/e2e-second-factor.test.ts: a real server and the console's tab with a virtual authenticator.
    secondFactorE2ePlugin(),
    // test/browser/e2e/demo-*: the demo shop on a real server (npm start's) and offline on the mocks.
    demoE2ePlugin(),
  ],
  middleware: [cspTestPage, cspFaceGuidePage, visionFiles, consoleUnderCsp],
  browsers: engineLaunchers(),
  // The camera groups need Chromium's camera flags: they run when Chromium is among the engines. Single
  // tests of the main group that need Chromium skip themselves elsewhere (test/browser/support/engine.ts).
  groups: (withChromium
    ? [
        // Camera permission denied by the browser's own prompt (Chromium's deny flag):
        // test/browser/e2e/camera-denied-upload.test.ts.
        { name: 'camera-denied', files: [CAMERA_DENIED_FILES], browsers: [chromium('deny')] },
        // The astronaut in front of the camera: liveness guided by the face model, judged by the real engine.
        {
          name: 'face-camera',
          files: [FACE_CAMERA_FILES, DEMO_FILES],
          browsers: [chromium('accept', faceVideo)],
        },
        // The passport on a desk: the document step by camera, its MRZ read by the real server.
        {
          name: 'passport-camera',
          files: [PASSPORT_CAMERA_FILES],
          browsers: [chromium('accept', passportVideo)],
        },
      ]
    : []
  ).filter((group) => !skippedGroups.has(group.name)),
};
