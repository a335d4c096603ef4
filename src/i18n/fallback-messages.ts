import type { MessageKey } from './en.ts';

/**
 * The few English strings the widget can show before any message chunk has arrived, or when none can
 * (offline): the loading screen, the offline screen and its retry, and the incomplete-link screen.
 * Every locale, English included, is a chunk of its own, so the script-tag file carries only these.
 * A test holds them equal to en.ts.
 */
export const FALLBACK_MESSAGES = {
  title: 'Verify your identity',
  loading: 'Loading…',
  retry: 'Try again',
  missingTitle: 'This verification link is incomplete',
  missingBody: 'Open the full link you were sent, or ask for a new one.',
  offlineTitle: 'Connection problem',
  offlineBody: 'We could not reach the server. Check your connection and try again.',
} as const satisfies Partial<Record<MessageKey, string>>;
