/**
 * Whether the widget runs on a phone or tablet, where "continue on your phone" makes no sense: the
 * browser says so (User-Agent Client Hints), or a coarse pointer with a screen no larger than a tablet's.
 */
export function isHandheld(): boolean {
  const hints = (globalThis.navigator as { userAgentData?: { mobile?: boolean } } | undefined)?.userAgentData;
  if (hints?.mobile) return true;
  return globalThis.matchMedia?.('(pointer: coarse) and (max-width: 1366px)').matches ?? false;
}
