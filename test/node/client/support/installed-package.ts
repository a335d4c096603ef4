import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
const PACKAGE = join(REPOSITORY, 'server/client');

export interface InstalledPackage {
  /** A tenant's project: `package.json` and `node_modules/@id-verify/node`, nothing else. */
  project: string;
  /** Every file the tarball holds, `package/…` paths. */
  tarballFiles: string[];
}

/**
 * Packs @id-verify/node as npm would publish it and installs the
 * tarball into an empty project in a temp directory, offline: the package has no dependency, so nothing is
 * fetched, and the project sees nothing of this repository. The build `npm pack`'s `prepack` would make is
 * made first only when missing (`npm test` builds everything before the suites), and the pack skips the
 * scripts: test/node/scripts/pack-install.test.ts packs the same folder in parallel and checks the
 * `prepack` itself, and two builds racing in one folder would pack a half-written one.
 *
 * @example
 * const { project } = installPackedClient();
 * await import(join(project, 'node_modules/@id-verify/node/dist/index.js'));
 */
export function installPackedClient(): InstalledPackage {
  const root = mkdtempSync(join(tmpdir(), 'idv-pack-'));
  if (!existsSync(join(PACKAGE, 'dist/index.js'))) {
    execFileSync(process.execPath, [join(REPOSITORY, 'scripts/build-node-client.ts')], { stdio: 'inherit' });
  }
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root], {
      cwd: PACKAGE,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = join(root, packed[0]!.filename);
  const project = join(root, 'tenant');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'tenant', private: true, type: 'module' }),
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  readdirSync(join(project, 'node_modules', '@id-verify', 'node')); // throws if the install did not land
  return { project, tarballFiles: packed[0]!.files.map((file) => `package/${file.path}`) };
}
