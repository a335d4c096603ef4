import { createRequire, registerHooks } from 'node:module';
import { join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import { registerChainedOps } from './tfjs-chained-ops.ts';

const UMBRELLA = '@tensorflow/tfjs';
const CORE = '@tensorflow/tfjs-core';

let aliased = false;

/**
 * face-api's node-wasm bundle `require`s the `@tensorflow/tfjs` umbrella (core, the converter, layers, data,
 * the cpu and webgl backends: about 225 MB installed) and copies its exports into `faceApi.tf`; every one of
 * the ops and helpers it calls on that object is tfjs-core's (the wasm backend it requires itself). So the
 * server does not install the umbrella: the specifier resolves to tfjs-core, the very module Human loads,
 * which is also what makes both share one engine; the tensor methods the umbrella would add come from
 * tfjs-chained-ops.ts. Registered once per process, and only for that exact specifier.
 */
function aliasTfjsUmbrellaToCore(): void {
  if (aliased) return;
  aliased = true;
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier === UMBRELLA ? CORE : specifier, context),
  });
}

/**
 * The node-wasm bundle of @vladmandic/face-api in `faceApiDir`, loaded against tfjs-core.
 *
 * @example
 * const faceApi = requireFaceApi<FaceApiModule>(packageDir('@vladmandic/face-api'));
 * faceApi.tf.getBackend() // 'wasm' once Human has set it
 */
export function requireFaceApi<Module>(faceApiDir: string): Module {
  aliasTfjsUmbrellaToCore();
  // Resolved from face-api's folder: the tfjs-core its bundle will get.
  const require = createRequire(join(faceApiDir, 'package.json'));
  registerChainedOps(require(CORE) as typeof Tf);
  return require(join(faceApiDir, 'dist', 'face-api.node-wasm.js')) as Module;
}
