import { existsSync, readdirSync } from 'node:fs';

/**
 * Where the machine's Firefox and WebKit are (Chromium: chromium.ts), without loading their launchers,
 * so scripts/test.ts can say which engines will run. Nothing is ever downloaded; each path can be
 * overridden through the environment.
 */

/** Debian's `firefox-esr`, or FIREFOX_PATH. */
export function findFirefox(): string | undefined {
  const candidates = [process.env['FIREFOX_PATH'], '/usr/bin/firefox-esr', '/usr/bin/firefox'];
  return candidates.find((path) => path && existsSync(path));
}

/**
 * WebKitGTK's MiniBrowser (Debian's `libwebkit2gtk-4.1-0`), or WEBKIT_MINIBROWSER_PATH. It lives in the
 * multiarch library folder, e.g. /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser.
 */
export function findMiniBrowser(): string | undefined {
  const fromEnv = process.env['WEBKIT_MINIBROWSER_PATH'];
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  const libraryDirs = ['/usr/lib', ...listDir('/usr/lib').map((name) => `/usr/lib/${name}`)];
  for (const dir of libraryDirs) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0', 'webkitgtk-6.0']) {
      const path = `${dir}/${api}/MiniBrowser`;
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}

/** Debian's `webkit2gtk-driver`, or WEBKIT_WEBDRIVER_PATH. */
export function findWebKitWebDriver(): string | undefined {
  const candidates = [process.env['WEBKIT_WEBDRIVER_PATH'], '/usr/bin/WebKitWebDriver'];
  return candidates.find((path) => path && existsSync(path));
}

/** MiniBrowser has no headless mode: without a DISPLAY it needs Debian's `xvfb`. */
export function findXvfb(): string | undefined {
  return ['/usr/bin/Xvfb'].find((path) => existsSync(path));
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
