/** API.md §10: events and deliveries are kept (and shown) for 30 days. */
export const RETENTION_MS = 30 * 24 * 3600 * 1000;
