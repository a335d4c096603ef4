/** Password hashing lives behind this seam: Argon2id natively in Node, Web Crypto in the browser mock. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}
