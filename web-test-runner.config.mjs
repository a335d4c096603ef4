// @ts-check
/**
 * Browser tests (`npm run test:browser`): headless Chromium from the machine, never a downloaded one.
 *
 * The camera is Chromium's fake capture device playing a synthetic ID card written by
 * test/fixtures/fake-camera.ts just before the run, and the permission prompt is auto-accepted, so
 * getUserMedia streams real frames without a human or a webcam.
 */
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { writeFakeCamera } from './test/fixtures/fake-camera.ts';
import { CHROMIUM_FLAGS, findChromium } from './test/support-server/chromium.ts';
import { e2eServerPlugin } from './test/support-server/e2e-plugin.ts';

const fakeVideo = writeFakeCamera();

/**
 * Headless Debian Chromium with the fake camera. `cameraPrompt` is how the fake permission prompt
 * answers getUserMedia: `accept` for every suite but one, `deny` (the user clicking "Block") for the
 * camera-denied group, which is why that group needs its own browser.
 */
function chromium(cameraPrompt) {
  return chromeLauncher({
    launchOptions: {
      executablePath: findChromium(),
      headless: true,
      args: [
        ...CHROMIUM_FLAGS,
        cameraPrompt === 'deny' ? '--use-fake-ui-for-media-stream=deny' : '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${fakeVideo}`,
      ],
    },
  });
}

const CAMERA_DENIED_FILES = 'test/browser/e2e/camera-denied-*.test.ts';

/** The hosted page's CSP (server/hosted/hosted-csp.ts) minus the nonce: nothing inline is allowed. */
const STRICT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; " +
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

export default {
  files: ['test/browser/**/*.test.ts', `!${CAMERA_DENIED_FILES}`],
  nodeResolve: true,
  // One page at a time: Chromium pauses requestAnimationFrame in background tabs, and the capture loop
  // (like a real camera page) runs on it. The whole suite takes ~15 s this way.
  concurrency: 1,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2023', tsconfig: 'tsconfig.json' }),
    // test/browser/e2e: the real server (server/node.ts), started on the first e2e command only.
    e2eServerPlugin(),
  ],
  middleware: [cspTestPage],
  browsers: [chromium('accept')],
  groups: [
    // Camera permission denied by the browser's own prompt: test/browser/e2e/camera-denied-upload.test.ts.
    { name: 'camera-denied', files: [CAMERA_DENIED_FILES], browsers: [chromium('deny')] },
  ],
};
