/** Password hashing lives behind this seam: Argon2id natively in Node, on WebAssembly in the browser mock. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Argon2id's cost: memory in KiB, passes over it, lanes. The PHC string records them for later upgrades. */
export interface Argon2Cost {
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

/** OWASP's Argon2id minimum (m = 19 MiB, t = 2, p = 1): what the server and the mock store. */
export const OWASP_ARGON2_COST: Argon2Cost = { memoryKiB: 19_456, iterations: 2, parallelism: 1 };
