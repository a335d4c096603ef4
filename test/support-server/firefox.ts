import type { BrowserLauncher } from '@web/test-runner';
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';

/**
 * Firefox's fake camera: a generated test pattern (not a video file) and no permission prompt, the
 * Firefox counterpart of Chromium's `--use-fake-device-for-media-stream --use-fake-ui-for-media-stream`.
 */
const FAKE_CAMERA_PREFS = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
};

/**
 * Headless Firefox (engine-paths.ts finds it) driven through puppeteer-core (WebDriver BiDi) by
 * web-test-runner's own Chrome launcher; passing puppeteer explicitly makes the launcher report itself
 * as "Firefox".
 */
export function firefoxLauncher(executablePath: string): BrowserLauncher {
  return chromeLauncher({
    puppeteer: puppeteerCore,
    launchOptions: {
      browser: 'firefox',
      executablePath,
      headless: true,
      extraPrefsFirefox: FAKE_CAMERA_PREFS,
    },
  });
}
