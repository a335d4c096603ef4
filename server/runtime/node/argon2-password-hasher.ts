import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../password-hasher.ts';

/** OWASP's Argon2id minimum (m = 19 MiB, t = 2, p = 1); the PHC string records them for later upgrades. */
// `algorithm: 2` is Argon2id; the package exports it as an ambient const enum that type stripping cannot inline.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const argon2PasswordHasher: PasswordHasher = {
  hash: (password) => hash(password, OPTIONS),
  verify: async (phc, password) => {
    try {
      return await verify(phc, password);
    } catch {
      return false;
    }
  },
};
