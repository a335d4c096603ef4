// `npm run build:mock`: the @id-verify/mock package's JavaScript, in mock/dist. The mock runs the real
// server app (createApp) behind MSW, so the server modules it imports are compiled with it and shipped
// inside the package (`mock/node.ts` becomes `mock/dist/mock/node.js`, `server/app.ts`
// `mock/dist/server/app.js`): the mock does not depend on @id-verify/server and its native modules.
import { compilePackage } from './build-typescript-package.ts';

compilePackage({
  label: '@id-verify/mock',
  entries: ['mock/index.ts', 'mock/node.ts', 'mock/browser.ts'],
  outDir: 'mock/dist',
});
