import { existsSync } from 'node:fs';

/**
 * The machine's Chromium for every browser this project drives (web-test-runner, the widget bench,
 * Lighthouse): CHROME_PATH or the usual Debian paths; nothing is ever downloaded.
 */
export function findChromium(): string {
  const candidates = [
    process.env['CHROME_PATH'],
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) throw new Error('Chromium not found: set CHROME_PATH or run `apt-get install -y chromium`');
  return found;
}

/** Headless and quiet: no sandbox (containers), no GPU, no update, sync or first-run traffic. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
