/**
 * The demo shop (demo/) on the real server (npm start), as a visitor uses it: the widget embedded in the shop's page.
 * Chromium's fake camera shows the astronaut (web-test-runner's `face-camera` browser); the passport is a
 * picked file. The visitor asks for the sandbox outcome "approved", so no reviewer is needed while the
 * evidence is still collected and checked (docs/sandbox-and-testing.md). What the flow runs on and what
 * is checked: test/support-server/demo-e2e-flow.ts and demo-e2e-plugin.ts.
 */
import type { DemoStarted } from '../../support-server/demo-e2e-plugin.ts';
import { expectVerified, FLOW_MS, START_MS, startDemo } from '../../support-server/demo-e2e-flow.ts';

describe('the demo shop on the real server (npm start)', () => {
  let started: DemoStarted;

  before(async function () {
    this.timeout(START_MS);
    started = await startDemo('server');
  });

  it('verifies a visitor in the widget embedded in the shop page and shows the verified name', async function () {
    this.timeout(FLOW_MS + 30_000);
    await expectVerified('server', started, 'embed', 0);
  });
});
