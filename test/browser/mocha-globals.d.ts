/**
 * The globals web-test-runner's mocha puts on window. Declared here (no @types/mocha in the project)
 * so test files type-check under the root tsconfig.
 */
type MochaBody = (this: { timeout(ms: number): void }) => unknown;
declare function describe(name: string, body: () => unknown): void;
declare function it(name: string, body: MochaBody): void;
declare function before(body: MochaBody): void;
declare function after(body: MochaBody): void;
declare function beforeEach(body: MochaBody): void;
declare function afterEach(body: MochaBody): void;
