import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installOfflineFetch } from './offline-fetch.ts';
import { modelRoot, packageDir } from './package-paths.ts';

// The thread tesseract.js starts for its WebAssembly core (its `workerPath`). Its own script captures
// `globalThis.fetch` when it loads, so the offline fetch goes in first: traineddata is read from
// node_modules by path, and anything that would still try the network fails instead.
installOfflineFetch(modelRoot());
createRequire(import.meta.url)(join(packageDir('tesseract.js'), 'src', 'worker-script', 'node', 'index.js'));
