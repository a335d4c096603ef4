// `npm run build:server [-- --web]`: the @id-verify/server package's JavaScript, in server/dist/lib (every
// module under server/ but the client kit, which is its own package, compiled with declarations;
// `server/app.ts` becomes `server/dist/lib/server/app.js`). The repository itself runs the TypeScript
// (`npm start`); an installed package runs this, since Node strips types only outside node_modules.
//
// `--web` also builds what the server serves from server/dist/web (the hosted page and the console, with
// their compressed twins): `npm pack` in server/ runs it that way (its `prepack`), so a tarball is whole
// even from a clean checkout. `npm run build` builds those itself and runs this without the flag.
import { compilePackage, run } from './build-typescript-package.ts';

compilePackage({
  label: '@id-verify/server',
  entries: ['server/**/*.ts'],
  exclude: /^server\/client\//,
  outDir: 'server/dist/lib',
});
if (process.argv.includes('--web')) {
  run('npm', ['run', '--silent', 'build:hosted']);
  run('npm', ['run', '--silent', 'build:console']);
  run(process.execPath, ['scripts/compress-assets.ts']);
}
