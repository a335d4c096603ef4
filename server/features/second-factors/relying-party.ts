/**
 * The WebAuthn relying party this installation is: its id is the host name of the configured base URL
 * (the console is served from that origin at /console), and the only origin assertions may come from is
 * that URL's origin. A passkey registered here is therefore bound to this host name by the browser.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export const RELYING_PARTY_NAME = 'id-verify console';

export function relyingPartyOf(baseUrl: string): RelyingParty {
  const url = new URL(baseUrl);
  return { id: url.hostname, name: RELYING_PARTY_NAME, origin: url.origin };
}
