/**
 * Hides a personal value from callers without `identities:read_pii` (API.md §6): the first character and
 * three asterisks, whatever the length, so the mask leaks neither the value nor its length.
 *
 * @example
 * maskPersonalValue('Jane') // 'J***'
 * maskPersonalValue(null) // null
 */
export function maskPersonalValue(value: string | null): string | null {
  if (value === null || value.length === 0) return value;
  return `${Array.from(value)[0]}***`;
}

/** Masks every string of a JSON-like value, keeping its shape and nulls. */
export function maskDeep<T>(value: T): T {
  if (typeof value === 'string') return maskPersonalValue(value) as T;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskDeep(item)])) as T;
  }
  return value;
}
