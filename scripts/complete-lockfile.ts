// Adds lockfile entries for platform-specific optional packages that the registry mirror we work behind
// does not serve (it answers 404 for, say, @rollup/rollup-darwin-arm64). npm then leaves them out of
// package-lock.json, and `npm ci` refuses the lock as "out of sync" on every machine. The entries we add
// carry the os/cpu/libc that npm checks before fetching, so npm skips them here exactly as it would with
// the registry's own metadata, and a machine on the public registry still installs its own binary.
//
// Run after `npm install`: node scripts/complete-lockfile.ts
import { readFileSync, writeFileSync } from 'node:fs';

interface LockEntry {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const OS_NAMES = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'win32', 'openharmony', 'sunos', 'aix'];
const CPU_NAMES = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

/** Reads os/cpu/libc from a conventional platform package name such as `rollup-linux-arm-musleabihf`. */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | undefined {
  const tokens = name.split('/').pop()!.split('-');
  const osIndex = tokens.findIndex((token) => OS_NAMES.includes(token));
  const os = tokens[osIndex];
  const cpu = tokens.slice(osIndex + 1).find((token) => CPU_NAMES.includes(token));
  if (osIndex < 0 || !os || !cpu) return undefined;
  const rest = tokens.slice(osIndex + 1).join('-');
  const libc = os === 'linux' ? (rest.includes('musl') ? ['musl'] : ['glibc']) : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, LockEntry> };
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dependency, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const parentDir = path === '' ? '' : `${path}/`;
    const nested = `${parentDir}node_modules/${dependency}`;
    const hoisted = `node_modules/${dependency}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    const platform = platformOf(dependency);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range)) continue;
    lock.packages[hoisted] = {
      version: range,
      ...platform,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} foreign-platform optional entries`);
