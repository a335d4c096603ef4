import { hash, verify } from '@node-rs/argon2';
import { type Argon2Cost, OWASP_ARGON2_COST, type PasswordHasher } from '../../password-hasher.ts';

/**
 * Native Argon2id (`@node-rs/argon2`) at `cost`. Verifying reads the cost from the stored PHC string, so
 * any cost verifies any other's hashes.
 */
export function argon2Hasher(cost: Argon2Cost): PasswordHasher {
  // `algorithm: 2` is Argon2id; the package exports it as an ambient const enum that type stripping cannot inline.
  const options = {
    algorithm: 2,
    memoryCost: cost.memoryKiB,
    timeCost: cost.iterations,
    parallelism: cost.parallelism,
  } as const;
  return {
    hash: (password) => hash(password, options),
    verify: async (phc, password) => {
      try {
        return await verify(phc, password);
      } catch {
        return false;
      }
    },
  };
}

export const argon2PasswordHasher: PasswordHasher = argon2Hasher(OWASP_ARGON2_COST);
