import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/**
 * The browser side of passkeys: the WebAuthn ceremonies through @simplewebauthn/browser, which turns the
 * server's JSON options into `navigator.credentials` calls and the credential back into JSON. Imported
 * on demand, so only the pages that use a passkey load it.
 */

/** WebAuthn is available (a secure context in a browser that has it). */
export function passkeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function' && globalThis.isSecureContext !== false;
}

/** Creates a passkey with the server's creation options; the credential as JSON for the server. */
export async function createPasskey(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  // The server's JSON, passed through as it came (the server built it with the same library's types).
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  const credential = await startRegistration({ optionsJSON });
  return credential as unknown as Record<string, unknown>;
}

/** Signs the server's challenge with one of the allowed passkeys; the assertion as JSON for the server. */
export async function assertPasskey(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  const assertion = await startAuthentication({ optionsJSON });
  return assertion as unknown as Record<string, unknown>;
}

/** The user dismissed the browser's dialog or let it time out: no error worth a code, just try again. */
export function isPasskeyCancelled(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  const cause = (error as { cause?: { name?: string } } | null)?.cause?.name;
  return name === 'NotAllowedError' || cause === 'NotAllowedError' || name === 'AbortError';
}
