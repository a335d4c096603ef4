/**
 * Node's `crypto` module when this code runs on Node, else `undefined` (browsers, the MSW worker).
 *
 * Why: Web Crypto in Node runs every digest, HMAC and AES-GCM call as a job on libuv's thread pool (four
 * threads) and resolves it through the event loop. A request does four or five such calls, so under load
 * the pool, not the CPU, caps throughput (measured with bench/api: a third of the time idle). Node's own
 * one-shot functions are synchronous and a few microseconds each. Feature detection through
 * `process.getBuiltinModule` keeps this file free of a static `node:` import, so the same code still
 * bundles and runs in a browser, where it falls back to Web Crypto with identical output.
 */
export type NodeCrypto = typeof import('node:crypto');

interface MaybeNodeGlobal {
  process?: { getBuiltinModule?: (id: string) => unknown };
}

export const nativeCrypto: NodeCrypto | undefined = (
  globalThis as MaybeNodeGlobal
).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

/** Node's `Buffer` class on Node, else `undefined`; found the same way as `nativeCrypto`. */
export const nodeBuffer: typeof import('node:buffer').Buffer | undefined = (
  (globalThis as MaybeNodeGlobal).process?.getBuiltinModule?.('node:buffer') as
    | typeof import('node:buffer')
    | undefined
)?.Buffer;
