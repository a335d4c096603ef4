import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestRunnerCoreConfig } from '@web/test-runner';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import { findXvfb } from './engine-paths.ts';

/**
 * WebKit for the browser suites: WebKitGTK's MiniBrowser (Debian's `libwebkit2gtk-4.1-0`) driven by
 * `WebKitWebDriver` (`webkit2gtk-driver`), both found by engine-paths.ts. MiniBrowser has no headless
 * mode, so without a DISPLAY it runs on an Xvfb of its own.
 */

/**
 * `--automation` lets WebKitWebDriver take the browser over (without it the session never starts);
 * the media flags turn on getUserMedia and WebKit's mock camera, a generated picture with no prompt;
 * test pages may open windows without a click (test/browser/console/built-console.csp-test.ts), as
 * Chromium and Firefox under automation let them.
 */
const MINIBROWSER_ARGS = [
  '--automation',
  '--enable-media-stream=true',
  '--enable-mock-capture-devices=true',
  '--javascript-can-open-windows-automatically=true',
];

/** A port nothing listens on now, for WebKitWebDriver (it cannot report the one it picked). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Xvfb on a display number it picks itself (`-displayfd`), resolved once it accepts clients. */
function startXvfb(xvfb: string): Promise<{ process: ChildProcess; display: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let digits = '';
    const displayFd = child.stdio[3] as NodeJS.ReadableStream;
    displayFd.on('data', (chunk: Buffer) => {
      digits += chunk.toString();
      if (digits.includes('\n')) resolve({ process: child, display: `:${digits.trim()}` });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready: ${stderr}`)));
  });
}

/**
 * Polls WebKitWebDriver's `/status` until it answers or the driver exits; `timeoutMs` only ends a driver
 * that hangs without either (20 s was within reach of a slow start on a loaded runner).
 */
async function waitForDriver(port: number, driver: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode})`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer on port ${port} within ${timeoutMs} ms`);
}

/**
 * web-test-runner's WebDriver launcher that also owns its WebKitWebDriver (and Xvfb when there is no
 * DISPLAY): they start with the first test file of the run and stop with the runner, also when it
 * exits abruptly, so no driver or X server outlives the run.
 */
class WebKitLauncher extends WebdriverLauncher {
  readonly #driverPath: string;
  readonly #options: { port?: number; hostname?: string };
  #processes: ChildProcess[] = [];
  #started: Promise<void> | undefined;

  constructor(driverPath: string, miniBrowser: string) {
    const options = {
      hostname: '127.0.0.1',
      logLevel: 'error' as const,
      // A browser that stops answering (seen once on an overloaded runner) fails its test file within
      // two minutes instead of being retried three times over.
      connectionRetryTimeout: 120_000,
      connectionRetryCount: 1,
      capabilities: {
        browserName: 'MiniBrowser',
        // WebKitWebDriver speaks classic WebDriver; webdriverio would otherwise ask for a BiDi socket.
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowser, args: MINIBROWSER_ARGS },
      },
    };
    super(options as ConstructorParameters<typeof WebdriverLauncher>[0]);
    this.#driverPath = driverPath;
    this.#options = options;
  }

  override async initialize(config: TestRunnerCoreConfig): Promise<void> {
    await super.initialize(config);
    // The summary line names the engine, as "Chromium" and "Firefox" do, rather than "MiniBrowser".
    this.name = 'WebKit';
  }

  override async startSession(id: string, url: string): Promise<void> {
    this.#started ??= this.#startProcesses();
    await this.#started;
    return super.startSession(id, url);
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.#stopProcesses();
  }

  async #startProcesses(): Promise<void> {
    process.once('exit', () => this.#stopProcesses());
    const env = { ...process.env };
    if (!env['DISPLAY']) {
      const xvfbPath = findXvfb();
      if (!xvfbPath) throw new Error('no DISPLAY and no Xvfb: run `apt-get install -y xvfb`');
      const xvfb = await startXvfb(xvfbPath);
      this.#processes.push(xvfb.process);
      env['DISPLAY'] = xvfb.display;
    }
    const port = await freePort();
    const driver = spawn(this.#driverPath, [`--port=${port}`], { env, stdio: 'ignore' });
    this.#processes.push(driver);
    await waitForDriver(port, driver);
    this.#options.port = port;
  }

  #stopProcesses(): void {
    // The driver first (it closes MiniBrowser), then the X server the browser drew on.
    for (const child of this.#processes.reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    }
    this.#processes = [];
  }
}

export function webkitLauncher(driverPath: string, miniBrowser: string): WebKitLauncher {
  return new WebKitLauncher(driverPath, miniBrowser);
}
