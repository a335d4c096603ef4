import { randomBase62 } from './primitives.ts';

/** Object id prefixes (API.md §1). */
export type IdPrefix =
  | 'ten'
  | 'usr'
  | 'key'
  | 'sess'
  | 'upl'
  | 'idn'
  | 'rvr'
  | 'wh'
  | 'evt'
  | 'dlv'
  | 'req'
  | 'job'
  | 'aud'
  | 'pky'
  | 'sfc';

export type IdGenerator = (prefix: IdPrefix) => string;

/**
 * Opaque random ids with 128 bits of entropy (the contract asks for at least 96).
 *
 * @example
 * randomIds('sess') // 'sess_4fQ0cZ2mUe9tYh1rVb7kLw'
 */
export const randomIds: IdGenerator = (prefix) => `${prefix}_${randomBase62(128)}`;
