// Reads the files a benchmark set is gathered from out of local git directories of public repositories
// (face-set-sources.ts, document-set-sources.ts): nothing is downloaded, and a set is rebuilt byte for byte
// from the commits its list names.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** One file of a set: where it is read from. */
export interface RepositoryFile {
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  path: string;
}

/**
 * The git directory of `repo` under `reposDir`: `<owner>+<name>` or `<name>` (or its `repo/`), a clone or
 * a bare one.
 */
function gitDirOf(reposDir: string, repo: string): string {
  const [owner, name] = repo.split('/') as [string, string];
  for (const folder of [`${owner}+${name}`, name]) {
    for (const candidate of [
      join(reposDir, folder, 'repo'),
      join(reposDir, folder, 'repo', '.git'),
      join(reposDir, folder, '.git'),
      join(reposDir, folder),
    ]) {
      if (existsSync(join(candidate, 'HEAD')) && existsSync(join(candidate, 'objects'))) return candidate;
    }
  }
  throw new Error(`no git directory for ${repo} under ${reposDir} (looked for ${owner}+${name} and ${name})`);
}

/**
 * A reader of a set's files that refuses a file missing at its commit, an empty one, and a second file
 * with the same bytes as an earlier one (a set counts each image once).
 *
 * @example
 * const read = setFileReader('/work/.mirror');
 * const bytes = read({ repo: 'serengil/deepface', commit: '243209f…', path: 'tests/unit/dataset/img1.jpg' });
 */
export function setFileReader(reposDir: string): (file: RepositoryFile) => Buffer {
  const seen = new Map<string, string>();
  return ({ repo, commit, path }) => {
    const bytes = execFileSync('git', ['--git-dir', gitDirOf(reposDir, repo), 'show', `${commit}:${path}`], {
      maxBuffer: 64 * 1024 * 1024,
    });
    if (bytes.length === 0) throw new Error(`${repo}:${path} is empty at ${commit}`);
    const digest = createHash('sha256').update(bytes).digest('hex');
    const twin = seen.get(digest);
    if (twin) throw new Error(`${repo}:${path} has the same bytes as ${twin}`);
    seen.set(digest, `${repo}:${path}`);
    return bytes;
  };
}
