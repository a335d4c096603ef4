// @ts-check
/**
 * The console's browser suites alone: `npx web-test-runner --config test/browser/console/web-test-runner.console.config.mjs`.
 * The project's config (Chromium from the machine, esbuild for TypeScript) without its camera groups,
 * whose face-model suites would otherwise run too. The main config already finds the `*.test.ts` files
 * here (`test/browser/**\/*.test.ts`) and the `*.csp-test.ts` ones, served `/console/*` from the real build
 * under the real CSP (test/support-server/console-under-csp.mjs), so `npm test` includes them.
 */
import base from '../../../web-test-runner.config.mjs';

export default {
  ...base,
  files: [
    process.env.IDV_CONSOLE_TEST_FILES ??
      '{test/browser/console/**/*.test.ts,test/browser/console/**/*.csp-test.ts}',
  ],
  groups: [],
  // IDV_CONSOLE_GREP="webhook" runs only the tests whose names match.
  testFramework: {
    ...base.testFramework,
    config: {
      ...base.testFramework?.config,
      ...(process.env.IDV_CONSOLE_GREP ? { grep: process.env.IDV_CONSOLE_GREP } : {}),
    },
  },
  // As the project's config: e2e-review.test.ts starts a real server, which a busy runner makes slow.
  testsFinishTimeout: 300_000,
};
