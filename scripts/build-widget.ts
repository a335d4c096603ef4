// `node scripts/build-widget.ts`: everything the `id-verify` package (src/package.json) ships, in src/dist:
// the modules and their declarations with the custom elements manifest (dist/npm) and the script-tag
// bundle (dist/sdk).
// `npm pack` in src/ runs it first (its `prepack`); `npm run build` runs the same steps among the others.
import { run } from './build-typescript-package.ts';

for (const script of ['build:npm', 'build:sdk']) run('npm', ['run', '--silent', script]);
