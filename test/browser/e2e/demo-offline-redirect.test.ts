/**
 * The demo shop (demo/) offline (npm run demo:offline), as a visitor uses it: a redirect to the hosted page at /verify/<token> and back.
 * Chromium's fake camera shows the astronaut (web-test-runner's `face-camera` browser); the passport is a
 * picked file. The visitor asks for the sandbox outcome "approved", so no reviewer is needed while the
 * evidence is still collected and checked (docs/sandbox-and-testing.md). What the flow runs on and what
 * is checked: test/support-server/demo-e2e-flow.ts and demo-e2e-plugin.ts.
 */
import type { DemoStarted } from '../../support-server/demo-e2e-plugin.ts';
import {
  expectForgedWebhookRefused,
  expectVerified,
  FLOW_MS,
  START_MS,
  startDemo,
} from '../../support-server/demo-e2e-flow.ts';

describe('the demo shop offline (npm run demo:offline)', () => {
  let started: DemoStarted;

  before(async function () {
    this.timeout(START_MS);
    started = await startDemo('offline');
  });

  it('verifies a visitor on the hosted page, back to the shop page, and shows the verified name', async function () {
    this.timeout(FLOW_MS + 30_000);
    await expectVerified('offline', started, 'redirect', 1);
  });

  it("refuses a webhook whose signature does not check out at the shop backend's endpoint", async function () {
    this.timeout(120_000);
    await expectForgedWebhookRefused('offline', started);
  });
});
