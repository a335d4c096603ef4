import { argon2id, argon2Verify } from 'hash-wasm';
import { type Argon2Cost, OWASP_ARGON2_COST, type PasswordHasher } from '../../password-hasher.ts';
import { randomBytes } from '../../crypto/primitives.ts';

const SALT_BYTES = 16;
const HASH_BYTES = 32;

/**
 * Argon2id on WebAssembly (`hash-wasm`) at `cost`: runs in browsers, workers and Node without a native
 * addon, which is why the MSW mock uses it. With a 16-byte salt and a 32-byte tag it writes the same PHC
 * string as the native Node hasher (server/runtime/node/argon2-password-hasher.ts) at the same cost, and
 * each verifies the other's hashes (verifying reads the cost from the string).
 */
export function wasmArgon2Hasher(cost: Argon2Cost): PasswordHasher {
  const parameters = {
    parallelism: cost.parallelism,
    iterations: cost.iterations,
    memorySize: cost.memoryKiB,
    hashLength: HASH_BYTES,
  };
  return {
    hash: (password) =>
      argon2id({ ...parameters, password, salt: randomBytes(SALT_BYTES), outputType: 'encoded' }),
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
}

/**
 * The mock's hasher: OWASP's Argon2id minimum, as the server stores it
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`). Slower than the native one (about 2×), fine for a mock.
 *
 * @example
 * const deps = { ...rest, passwords: wasmArgon2PasswordHasher };
 * const phc = await deps.passwords.hash('correct horse'); // '$argon2id$v=19$m=19456,t=2,p=1$…'
 */
export const wasmArgon2PasswordHasher: PasswordHasher = wasmArgon2Hasher(OWASP_ARGON2_COST);
