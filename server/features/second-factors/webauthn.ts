/**
 * @simplewebauthn/server, loaded on first use. The app also runs inside a web page as the MSW mock, where
 * this library's ASN.1 dependencies (CommonJS) cannot be served as they are: loading it only when a
 * passkey is registered or used keeps every other operation of the mock working, and the Node server's
 * start-up from paying for a module most requests never need.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;

export function webauthnLibrary(): Promise<typeof import('@simplewebauthn/server')> {
  library ??= import('@simplewebauthn/server');
  return library;
}
