// @ts-check
/**
 * Browser tests (`npm run test:browser`): headless Chromium from the machine, never a downloaded one.
 *
 * The camera is Chromium's fake capture device playing a synthetic ID card written by
 * test/fixtures/fake-camera.ts just before the run, and the permission prompt is auto-accepted, so
 * getUserMedia streams real frames without a human or a webcam.
 */
import { existsSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { writeFakeCamera } from './test/fixtures/fake-camera.ts';

function findChromium() {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) throw new Error('Chromium not found: set CHROME_PATH or run `apt-get install -y chromium`');
  return found;
}

const fakeVideo = writeFakeCamera();

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  // Each file loads lit and the widget again; a few in parallel is what a small CI machine can take.
  concurrency: 2,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2023', tsconfig: 'tsconfig.json' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: findChromium(),
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-video-capture=${fakeVideo}`,
        ],
      },
    }),
  ],
};
