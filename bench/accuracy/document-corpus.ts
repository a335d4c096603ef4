// `npm run bench:accuracy -- --documents <dir> [--json]`: how the server's reading of document photos
// fares on a corpus kept outside the repository: every `<name>.jpg` (`.png`, `.webp`) under `<dir>` with
// its `<name>.mrz` (the zone as printed, one line per line), the sub-directory naming the capture
// condition. Each photo goes through `readDocumentPhoto`, the call the upload route makes, and is
// classified as
//
// - exact: presented as read (the reading's summary says the zone is valid, so the widget confirms
//   instead of asking to type) and every character of every line equal to the printed zone;
// - wrong_accepted: presented as read with any character different: the dangerous outcome;
// - unread: not presented as read (no zone, a zone that does not verify, or the photo refused).
//
// It reports and never judges: no threshold is tuned here. The corpus (generated halves from
// `npm run fixtures:documents -- --corpus`, real specimens) and its provenance are in docs/verification.md.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { MrzFormatError, parseMrz } from '../../server/domain/mrz.ts';
import { ApiError } from '../../server/errors/api-error.ts';
import { type PhotoReading, readDocumentPhoto } from '../../server/features/verify/read-document-photo.ts';
import type { EngineInfo, VisionEngine } from '../../server/features/vision/vision-engine.ts';
import { processTreeCpuMs } from './process-tree-cpu.ts';

export type CorpusOutcome = 'exact' | 'wrong_accepted' | 'unread';
/** TD1 3 × 30, TD2 2 × 36 (and MRV-B visas), TD3 2 × 44 (and MRV-A visas); `other` for anything else. */
export type ZoneShape = 'TD1' | 'TD2' | 'TD3' | 'other';

export interface CorpusImage {
  /** Path of the JPEG. */
  file: string;
  /** Path relative to the corpus root, without extension. */
  name: string;
  /** The sub-directory (relative to the root, `/`-separated), or `.` for images at the root. */
  condition: string;
  /** The printed zone. */
  expected: string[];
  shape: ZoneShape;
}

export interface Tally {
  total: number;
  exact: number;
  wrong_accepted: number;
  unread: number;
}

export interface ImageResult {
  image: CorpusImage;
  outcome: CorpusOutcome;
  /** The lines as read (null: no zone read), for the report of wrong reads. */
  read: string[] | null;
  /** Why it was not presented as read: `no_zone`, `not_valid`, or the refusal's code. */
  reason: string | null;
  cpuMs: number;
  wallMs: number;
}

export interface CorpusReport {
  results: ImageResult[];
  total: Tally;
  conditions: Record<string, Tally>;
  shapes: Record<string, Tally>;
  /** Images whose printed zone does not verify itself (wrong check digits as printed, non-ICAO layouts). */
  expectedInvalid: number;
  cpuMsPerImage: number;
  wallMsPerImage: number;
  /** The first read (models loading), not in the timings. */
  warmupMs: number;
  engine: EngineInfo | null;
}

export function shapeOf(lines: readonly string[]): ZoneShape {
  const lengths = lines.map((line) => line.length);
  if (lines.length === 3 && lengths.every((n) => n === 30)) return 'TD1';
  if (lines.length === 2 && lengths.every((n) => n === 36)) return 'TD2';
  if (lines.length === 2 && lengths.every((n) => n === 44)) return 'TD3';
  return 'other';
}

/** The expected lines of a `.mrz` file: trimmed, blank lines dropped. */
export function parseExpectedLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/**
 * Every `<name>.jpg` (or `.jpeg`, `.png`, `.webp`: what the API accepts) under `root` that has a
 * `<name>.mrz` beside it, sorted by path.
 *
 * @example
 * listCorpus('/work/data/documents/generated-a')[0].condition // 'background_busy'
 */
export function listCorpus(root: string): CorpusImage[] {
  const images: CorpusImage[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      const match = /^(.*)\.(?:jpe?g|png|webp)$/i.exec(entry);
      if (!match) continue;
      let text: string;
      try {
        text = readFileSync(join(dir, `${match[1]}.mrz`), 'utf8');
      } catch {
        continue; // a photo without its zone is not part of the corpus
      }
      const expected = parseExpectedLines(text);
      const condition = relative(root, dirname(path)).split(sep).join('/') || '.';
      images.push({
        file: path,
        name: relative(root, join(dir, match[1]!)).split(sep).join('/'),
        condition,
        expected,
        shape: shapeOf(expected),
      });
    }
  };
  walk(root);
  return images;
}

/** The upload the bench makes for a zone of this shape: what a person would choose for that document. */
export function uploadFor(shape: ZoneShape): { documentType: string; side: 'front' | 'back' } {
  if (shape === 'TD1') return { documentType: 'id_card', side: 'back' };
  if (shape === 'TD2') return { documentType: 'id_card', side: 'front' };
  return { documentType: 'passport', side: 'front' };
}

/**
 * The outcome of one photo, from what `readDocumentPhoto` returned (or the error it threw). "Presented as
 * read" is the reading summary's `mrz_valid`, the flag the widget and the review act on.
 *
 * @example
 * classifyReading(reading, ['P<UTO…', 'L898…']).outcome // 'exact'
 */
export function classifyReading(
  reading: PhotoReading | null,
  expected: readonly string[],
  refusal: string | null = null,
): { outcome: CorpusOutcome; read: string[] | null; reason: string | null } {
  if (refusal !== null || reading === null)
    return { outcome: 'unread', read: null, reason: refusal ?? 'no_reading' };
  if (reading.step !== 'id_document')
    return { outcome: 'unread', read: null, reason: 'not_a_document_reading' };
  const read = reading.stored.mrz ? [...reading.stored.mrz.lines] : null;
  if (read === null) return { outcome: 'unread', read, reason: 'no_zone' };
  const same = read.length === expected.length && read.every((line, i) => line === expected[i]);
  if (reading.summary.mrz_valid !== true) {
    // Every field under a check digit read surely and verified, only a letter of the names in doubt: the
    // widget offers the details with the names for the person to confirm. Still unread here, but told
    // apart, with whether the names offered were as printed.
    const parsed = reading.stored.mrz?.parsed;
    const namesOnly =
      parsed?.namesUncertain === true &&
      parsed.invalidFields.length === 0 &&
      parsed.uncertainFields.length === 0;
    const reason = namesOnly ? (same ? 'names_to_confirm' : 'names_to_confirm_misread') : 'not_valid';
    return { outcome: 'unread', read, reason };
  }
  return { outcome: same ? 'exact' : 'wrong_accepted', read, reason: null };
}

/** Whether the printed zone verifies by itself (the ceiling a perfect reader can reach on it). */
export function expectedVerifies(lines: readonly string[]): boolean {
  try {
    return parseMrz(lines.join('\n')).valid;
  } catch (error) {
    if (error instanceof MrzFormatError) return false;
    throw error;
  }
}

function emptyTally(): Tally {
  return { total: 0, exact: 0, wrong_accepted: 0, unread: 0 };
}

function add(tally: Tally, outcome: CorpusOutcome) {
  tally.total++;
  tally[outcome]++;
}

/**
 * Why a photo was not read: the code of the refusal `readDocumentPhoto` throws (`document_type_mismatch`,
 * `unprocessable_image`), or `engine_error` when the engine itself failed: counted as unread and reported,
 * so one failing photo does not end a run over hundreds.
 */
function refusalCode(error: unknown): string {
  return error instanceof ApiError ? error.code : 'engine_error';
}

/**
 * Reads every photo of the corpus at `root` with `engine`, one at a time, as the upload route does.
 * CPU time is this process's and its children's (the engine's forked workers): run nothing else in the
 * process meanwhile.
 *
 * @example
 * const report = await measureDocumentCorpus(createNodeVisionEngine({ threads: 1 }), '/work/data/documents/real');
 */
export async function measureDocumentCorpus(
  engine: VisionEngine,
  root: string,
  options: { filter?: (image: CorpusImage) => boolean; onImage?: (result: ImageResult) => void } = {},
): Promise<CorpusReport> {
  const images = listCorpus(root).filter(options.filter ?? (() => true));
  if (images.length === 0) throw new Error(`No <name>.jpg (.png, .webp) with a <name>.mrz under ${root}`);
  const readOne = async (image: CorpusImage) => {
    try {
      return {
        reading: await readDocumentPhoto(
          engine,
          { step: 'id_document', ...uploadFor(image.shape) },
          readFileSync(image.file),
          new Date(),
        ),
        refusal: null,
      };
    } catch (error) {
      return { reading: null, refusal: refusalCode(error) };
    }
  };

  const warmupStarted = performance.now();
  await readOne(images[0]!);
  const warmupMs = performance.now() - warmupStarted;

  const results: ImageResult[] = [];
  let engineInfo: EngineInfo | null = null;
  for (const image of images) {
    const cpuBefore = processTreeCpuMs().ms;
    const started = performance.now();
    const { reading, refusal } = await readOne(image);
    const wallMs = performance.now() - started;
    const cpuMs = processTreeCpuMs().ms - cpuBefore;
    if (reading?.step === 'id_document') engineInfo ??= reading.stored.engine;
    const result: ImageResult = {
      image,
      ...classifyReading(reading, image.expected, refusal),
      cpuMs,
      wallMs,
    };
    results.push(result);
    options.onImage?.(result);
  }
  return summarise(results, warmupMs, engineInfo);
}

export function summarise(
  results: ImageResult[],
  warmupMs = 0,
  engine: EngineInfo | null = null,
): CorpusReport {
  const total = emptyTally();
  const conditions: Record<string, Tally> = {};
  const shapes: Record<string, Tally> = {};
  for (const result of results) {
    add(total, result.outcome);
    conditions[result.image.condition] ??= emptyTally();
    shapes[result.image.shape] ??= emptyTally();
    add(conditions[result.image.condition]!, result.outcome);
    add(shapes[result.image.shape]!, result.outcome);
  }
  const n = Math.max(1, results.length);
  return {
    results,
    total,
    conditions,
    shapes,
    expectedInvalid: results.filter((r) => !expectedVerifies(r.image.expected)).length,
    cpuMsPerImage: results.reduce((sum, r) => sum + r.cpuMs, 0) / n,
    wallMsPerImage: results.reduce((sum, r) => sum + r.wallMs, 0) / n,
    warmupMs,
    engine,
  };
}

function percent(hits: number, of: number): string {
  return of === 0 ? '–' : `${((100 * hits) / of).toFixed(1)} %`;
}

function table(title: string, rows: [string, Tally, number][]): string[] {
  const header = [title, 'n', 'exact', 'wrong_accepted', 'unread', 'exact %', 'CPU ms'];
  const cells = rows.map(([name, t, cpu]) => [
    name,
    String(t.total),
    String(t.exact),
    String(t.wrong_accepted),
    String(t.unread),
    percent(t.exact, t.total),
    cpu.toFixed(0),
  ]);
  const all = [header, ...cells];
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]!.length)));
  const render = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(render)];
}

/** Mean CPU ms of the results matching `pick`. */
function meanCpu(results: ImageResult[], pick: (r: ImageResult) => boolean): number {
  const chosen = results.filter(pick);
  return chosen.length ? chosen.reduce((sum, r) => sum + r.cpuMs, 0) / chosen.length : 0;
}

/** `not_valid 12, no_zone 3, …`: why photos were not presented as read. */
function reasons(results: ImageResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) if (r.reason) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
}

/** The report as text tables: per condition, per zone shape, then every wrong read spelled out. */
export function formatDocumentCorpusReport(report: CorpusReport): string {
  const { results } = report;
  const byCondition = Object.entries(report.conditions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, t]): [string, Tally, number] => [
      name === '.' ? '(top level)' : name,
      t,
      meanCpu(results, (r) => r.image.condition === name),
    ]);
  const byShape = Object.entries(report.shapes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, t]): [string, Tally, number] => [name, t, meanCpu(results, (r) => r.image.shape === name)]);
  const wrong = results.filter((r) => r.outcome === 'wrong_accepted');
  const lines = [
    ...table('condition', [...byCondition, ['all', report.total, report.cpuMsPerImage]]),
    '',
    ...table('zone', byShape),
    '',
    `exact: presented as read (summary mrz_valid) with every character as printed; wrong_accepted: presented as`,
    `read with any character different; unread: not presented as read (names_to_confirm: every checked field read and`,
    `verified, a letter of the names in doubt and offered to the person to confirm, as printed; names_to_confirm_misread:`,
    `the same with a letter of the names offered wrong). ${report.expectedInvalid} image(s) carry a printed`,
    `zone that does not verify by itself (wrong check digits as printed, non-ICAO layouts): no reader can present them as read.`,
    `CPU ms: mean CPU of the bench and the engine's worker processes per image; wall ${report.wallMsPerImage.toFixed(0)} ms per image;`,
    `first read (models loading) ${report.warmupMs.toFixed(0)} ms, not in the timings.`,
    `Not presented as read, by reason: ${reasons(results) || 'none'}.`,
    `Engine: ${report.engine ? `${report.engine.kind}, ${report.engine.models.join(', ')}` : 'unknown'}`,
  ];
  if (wrong.length) {
    lines.push('', `Wrong reads presented as read (${wrong.length}):`);
    for (const r of wrong) {
      lines.push(`  ${r.image.name}`);
      r.image.expected.forEach((line, i) => {
        const got = r.read?.[i] ?? '';
        if (got !== line) lines.push(`    printed ${line}`, `    read    ${got}`);
      });
    }
  }
  return lines.join('\n');
}

/** The one-line JSON summary; its first keys are the totals, in the order the issue names them. */
export function documentCorpusJson(report: CorpusReport): string {
  const tally = (t: Tally) => ({
    total: t.total,
    exact: t.exact,
    wrong_accepted: t.wrong_accepted,
    unread: t.unread,
  });
  return JSON.stringify({
    ...tally(report.total),
    conditions: Object.fromEntries(Object.entries(report.conditions).map(([k, t]) => [k, tally(t)])),
    zones: Object.fromEntries(Object.entries(report.shapes).map(([k, t]) => [k, tally(t)])),
    expected_invalid: report.expectedInvalid,
    cpu_ms_per_image: Math.round(report.cpuMsPerImage),
    engine: report.engine,
  });
}

/** `basename` of the corpus root, for titles. */
export function corpusTitle(root: string): string {
  return basename(root.replace(/[\\/]+$/, ''));
}

/**
 * The `--documents` mode of `bench:accuracy`: reads the corpus with the Node engine (one thread, as a
 * single-core host runs it), prints the tables and, with `json`, the JSON summary as the last line.
 * `IDV_BENCH_ONLY=<text>` keeps the photos whose path contains the text (a quick subset while working).
 */
export async function runDocumentCorpusBench(root: string, options: { json: boolean }) {
  const { createNodeVisionEngine } = await import('../../server/runtime/node/vision/node-vision-engine.ts');
  const only = process.env.IDV_BENCH_ONLY;
  // The server's 60 s job timeout guards a live server; on a loaded machine it would retire the worker
  // while its models load and count the photo as unread, so the bench waits as long as a read takes.
  const engine = createNodeVisionEngine({ threads: 1, jobTimeoutMs: 30 * 60_000 });
  try {
    const report = await measureDocumentCorpus(engine, root, {
      ...(only ? { filter: (image: CorpusImage) => image.name.includes(only) } : {}),
      onImage: (r) =>
        process.stderr.write(`${r.outcome.padEnd(14)} ${r.image.name}${r.reason ? ` (${r.reason})` : ''}\n`),
    });
    console.log(`Documents from ${root} (${corpusTitle(root)}):`);
    console.log(formatDocumentCorpusReport(report));
    if (options.json) console.log(documentCorpusJson(report));
  } finally {
    await engine.close();
  }
}
