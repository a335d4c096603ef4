import { argon2id, argon2Verify } from 'hash-wasm';
import type { PasswordHasher } from '../../password-hasher.ts';
import { randomBytes } from '../../crypto/primitives.ts';

/**
 * The same parameters as the native Node hasher (server/runtime/node/argon2-password-hasher.ts): OWASP's
 * Argon2id minimum, a 16-byte salt and a 32-byte tag, so both write the identical PHC string
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` and each verifies the other's hashes.
 */
const PARAMETERS = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;
const SALT_BYTES = 16;

/**
 * Argon2id on WebAssembly (`hash-wasm`): runs in browsers, workers and Node without a native addon,
 * which is why the MSW mock uses it. Slower than the native one (about 2×), fine for a mock.
 *
 * @example
 * const deps = { ...rest, passwords: wasmArgon2PasswordHasher };
 * const phc = await deps.passwords.hash('correct horse'); // '$argon2id$v=19$m=19456,t=2,p=1$…'
 */
export const wasmArgon2PasswordHasher: PasswordHasher = {
  hash: (password) =>
    argon2id({ ...PARAMETERS, password, salt: randomBytes(SALT_BYTES), outputType: 'encoded' }),
  verify: async (phc, password) => {
    // A malformed or foreign hash is a failed login, never a 500.
    if (!phc.startsWith('$argon2id$')) return false;
    try {
      return await argon2Verify({ password, hash: phc });
    } catch {
      return false;
    }
  },
};
