import { findChromium } from './chromium.ts';
import { findFirefox, findMiniBrowser, findWebKitWebDriver, findXvfb } from './engine-paths.ts';

/**
 * The browser engines the browser suites run in, chosen with IDV_BROWSERS (a comma-separated list of
 * chromium, firefox, webkit). Unset, every engine installed on the machine runs and a missing one is
 * skipped with a message saying how to install it; named in IDV_BROWSERS (as .ci/run does), a missing
 * engine fails the run, so CI cannot pass on fewer engines than it asked for.
 */
export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type Engine = (typeof ENGINES)[number];

export interface EngineSelection {
  engines: Engine[];
  /** Why each left-out engine is not running, for the run's log. */
  skipped: string[];
}

/** Why `engine` cannot run here (with the Debian package that fixes it), or undefined when it can. */
export function missingReason(engine: Engine): string | undefined {
  switch (engine) {
    case 'chromium':
      try {
        findChromium();
        return undefined;
      } catch {
        return 'Chromium is not installed: `apt-get install -y chromium` or set CHROME_PATH';
      }
    case 'firefox':
      return findFirefox()
        ? undefined
        : 'Firefox is not installed: `apt-get install -y firefox-esr` or set FIREFOX_PATH';
    case 'webkit':
      if (!findWebKitWebDriver() || !findMiniBrowser())
        return 'WebKit is not installed: `apt-get install -y webkit2gtk-driver` (WebKitWebDriver and MiniBrowser)';
      if (!process.env['DISPLAY'] && !findXvfb())
        return 'WebKit needs a display: `apt-get install -y xvfb` (or set DISPLAY)';
      return undefined;
  }
}

export function parseEngines(value: string): Engine[] {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((name) => !(ENGINES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`IDV_BROWSERS="${value}": name one or more of ${ENGINES.join(', ')}`);
  return [...new Set(names as Engine[])];
}

export function selectEngines(requested = process.env['IDV_BROWSERS']): EngineSelection {
  if (requested) {
    const engines = parseEngines(requested);
    const missing = engines.flatMap((engine) => missingReason(engine) ?? []);
    if (missing.length > 0)
      throw new Error(
        `IDV_BROWSERS=${requested} asks for engines this machine lacks:\n  ${missing.join('\n  ')}`,
      );
    return { engines, skipped: [] };
  }
  const engines: Engine[] = [];
  const skipped: string[] = [];
  for (const engine of ENGINES) {
    const reason = missingReason(engine);
    if (reason) skipped.push(`${engine} skipped: ${reason}`);
    else engines.push(engine);
  }
  if (engines.length === 0) throw new Error(`no browser engine installed:\n  ${skipped.join('\n  ')}`);
  return { engines, skipped };
}
