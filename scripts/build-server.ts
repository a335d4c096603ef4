// `npm run build:server [-- --web]`: the @id-verify/server package's JavaScript, in server/dist/lib (every
// module under server/ but the client kit, which is its own package, and web/, the browser apps Vite builds, compiled with declarations;
// `server/app.ts` becomes `server/dist/lib/server/app.js`). The repository itself runs the TypeScript
// (`npm start`); an installed package runs this, since Node strips types only outside node_modules.
//
// Then what the server serves that other packages build, copied into server/dist/web so the package ships
// it and installs alone: the API reference renderer (Scalar's prebuilt browser bundle, from the
// `@scalar/api-reference` devDependency, to docs/api-reference.js) and the widget's script-tag bundle
// (src/dist/sdk, to sdk/, without its compressed twins; when it is built).
//
// `--web` also builds what the server serves from server/dist/web (the script-tag bundle, the hosted page
// and the console, with their compressed twins): `npm pack` in server/ runs it that way (its `prepack`),
// so a tarball is whole even from a clean checkout. `npm run build` builds those itself and runs this
// without the flag.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compilePackage, run } from './build-typescript-package.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'server/dist/web');

/** Scalar's standalone bundle (JavaScript with its CSS inlined), which its package exports no path to. */
function scalarBundle(): string {
  const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
  return join(entry.slice(0, entry.lastIndexOf('/dist/')), 'dist/browser/standalone.js');
}

function copyServedAssets(): void {
  const docs = join(WEB, 'docs/api-reference.js');
  mkdirSync(dirname(docs), { recursive: true });
  cpSync(scalarBundle(), docs);
  const sdk = join(ROOT, 'src/dist/sdk');
  if (!existsSync(sdk)) return;
  rmSync(join(WEB, 'sdk'), { recursive: true, force: true });
  cpSync(sdk, join(WEB, 'sdk'), { recursive: true, filter: (path) => !/\.(br|gz)$/.test(path) });
}

compilePackage({
  label: '@id-verify/server',
  entries: ['server/**/*.ts'],
  exclude: /^server\/(client|web)\//,
  outDir: 'server/dist/lib',
});
if (process.argv.includes('--web')) {
  run('npm', ['run', '--silent', 'build:sdk']);
  run('npm', ['run', '--silent', 'build:hosted']);
  run('npm', ['run', '--silent', 'build:console']);
  run(process.execPath, ['scripts/compress-assets.ts']);
}
copyServedAssets();
