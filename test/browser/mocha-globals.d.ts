/**
 * The globals web-test-runner's mocha puts on window. Declared here (no @types/mocha in the project)
 * so test files type-check under the root tsconfig.
 */
type MochaBody = (this: { timeout(ms: number): void }) => unknown;
// A suite's `this.timeout(ms)` sets the time-out of every test in it.
declare function describe(name: string, body: MochaBody): void;
declare function it(name: string, body: MochaBody): void;
declare function before(body: MochaBody): void;
declare function after(body: MochaBody): void;
declare function beforeEach(body: MochaBody): void;
declare function afterEach(body: MochaBody): void;
