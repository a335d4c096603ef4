import { argon2Hasher } from '../../../server/runtime/node/argon2-password-hasher.ts';
import { wasmArgon2Hasher } from '../../../server/runtime/browser/wasm-argon2-password-hasher.ts';
import type { Argon2Cost } from '../../../server/password-hasher.ts';

/**
 * Argon2id at a small cost for the test harnesses: the same code and PHC format as in production, with a
 * cost the suites need not pay. Every harness hashes two admins' passwords and most log in: at OWASP's
 * cost (19 MiB, two passes) a hash took 150–500 ms of CPU on the loaded 2-core runner, for about a
 * thousand hashes a run. The stored cost itself is checked where it matters (auth.security.test.ts asks
 * its harness for `passwordCost: 'owasp'`; the mock's own default is checked in mock-api.happy.test.ts).
 */
export const TEST_ARGON2_COST: Argon2Cost = { memoryKiB: 256, iterations: 1, parallelism: 1 };

/** The server's native hasher at the test cost. */
export const testPasswordHasher = argon2Hasher(TEST_ARGON2_COST);

/** The mock's WebAssembly hasher at the test cost (the parity transport's mock, see mock-transport.ts). */
export const testMockPasswordHasher = wasmArgon2Hasher(TEST_ARGON2_COST);
