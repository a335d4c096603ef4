/**
 * The engine the test page runs in (web-test-runner.config.mjs runs the suites in Chromium, Firefox and
 * WebKit), for the few tests that need something only Chromium offers here: the camera fed from a
 * video file (test/fixtures/fake-camera.ts), or a DevTools-protocol command.
 */
export type Engine = 'chromium' | 'firefox' | 'webkit';

function detectEngine(): Engine {
  const agent = navigator.userAgent;
  // Headless Chromium says "HeadlessChrome/…"; WebKitGTK's MiniBrowser says "Safari/…" without "Chrome".
  if (/\bFirefox\//.test(agent)) return 'firefox';
  if (/Chrome\//.test(agent)) return 'chromium';
  return 'webkit';
}

export const engine: Engine = detectEngine();

/**
 * Skips the running test outside Chromium, saying why in the browser log. Call it first thing in the
 * test: `chromiumOnly(this, 'auto-capture needs the ID card, which only Chromium's camera shows')`.
 */
export function chromiumOnly(test: unknown, reason: string): void {
  if (engine === 'chromium') return;
  console.info(`Chromium only, skipped in ${engine}: ${reason}`);
  (test as { skip(): never }).skip();
}

/**
 * Skips the running test in WebKit, saying why in the browser log. For the tests that open a live stream
 * from WebKitGTK's mock camera (MiniBrowser `--enable-mock-capture-devices`): with WebKitGTK 2.50.6
 * (Debian 12) the page then stops answering its driver, so the whole WebKit run would hang for minutes
 * rather than fail one test. Chromium and Firefox still run them.
 */
export function notInWebKit(test: unknown, reason: string): void {
  if (engine !== 'webkit') return;
  console.info(`Skipped in WebKit: ${reason}`);
  (test as { skip(): never }).skip();
}
