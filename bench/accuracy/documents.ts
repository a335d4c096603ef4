// `node bench/accuracy/documents.ts [--filter <text>]`: how well a vision engine reads the committed
// specimen documents (test/fixtures/vision/documents/), per document side × degradation: exact MRZ reads,
// check-digit-valid reads, PDF417 reads, zones "read" where there are none, and CPU time per read.
//
// It reports; it does not judge. Nothing in the engine is tuned on this set: the set is small and
// synthetic, so tuning on it would only overfit it. Images a transform destroys on purpose
// (`expected_readable: false`) do not count towards the read rates; a check-digit-valid read of one that
// differs from the truth is counted as a wrong read.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMrz } from '../../server/domain/mrz.ts';
import { createNodeVisionEngine } from '../../server/runtime/node/vision/node-vision-engine.ts';
import type {
  DocumentReading,
  EngineInfo,
  VisionEngine,
} from '../../server/features/vision/vision-engine.ts';
import {
  DOCUMENT_FIXTURES_DIR,
  loadDocumentManifest,
  type ManifestImage,
} from '../../test/fixtures/vision/documents/manifest.ts';
import { processTreeCpuMs } from './process-tree-cpu.ts';

/** One document side (or negative) under one degradation. */
export interface DocumentReadingRow {
  /** `passport/front`, `id_card/back`, `utility_bill/front (text_page)`… */
  document: string;
  /** The degradation's name, or `clean`. */
  degradation: string;
  images: number;
  /** Images with an MRZ a reader should read (expected_readable). */
  mrzExpected: number;
  /** Every character of every line equal to the printed zone. */
  mrzExact: number;
  /** The lines read parse as an MRZ whose check digits all hold (whether or not they are the right ones). */
  mrzCheckDigitsValid: number;
  barcodeExpected: number;
  /** The decoded text equals the printed AAMVA text exactly. */
  barcodeRead: number;
  /** A zone or barcode reported on an image (or side) that has none: negatives, card fronts. */
  phantomReads: number;
  /** A check-digit-valid MRZ or a barcode whose content differs from the truth: the dangerous misread. */
  wrongReads: number;
  /** Images the engine rejected (threw); counted as not read. */
  failures: number;
  /** Mean CPU time of this process and the engine's worker processes per read, ms. */
  cpuMsPerRead: number;
  /** Mean wall-clock time per read, ms. */
  wallMsPerRead: number;
}

export interface DocumentReadingReport {
  rows: DocumentReadingRow[];
  /** The same counts over every image. */
  total: DocumentReadingRow;
  /** The first read (models loading), excluded from the timings. */
  warmupMs: number;
  engine: EngineInfo | null;
}

function emptyRow(document: string, degradation: string): DocumentReadingRow {
  return {
    document,
    degradation,
    images: 0,
    mrzExpected: 0,
    mrzExact: 0,
    mrzCheckDigitsValid: 0,
    barcodeExpected: 0,
    barcodeRead: 0,
    phantomReads: 0,
    wrongReads: 0,
    failures: 0,
    cpuMsPerRead: 0,
    wallMsPerRead: 0,
  };
}

/** What the engine is told the photo is: the negatives are uploaded as the document they pretend to be. */
function readOptions(image: ManifestImage) {
  if (image.negative)
    return { documentType: image.negative.uploaded_as.document_type, side: image.negative.uploaded_as.side };
  return { documentType: image.document_type, side: image.side ?? 'front' };
}

function documentKey(image: ManifestImage): string {
  const side = image.side ?? 'photo';
  return `${image.document_type}/${side}${image.negative ? ` (${image.negative.kind})` : ''}`;
}

function checkDigitsValid(lines: readonly string[]): boolean {
  try {
    return parseMrz(lines.join('\n')).valid;
  } catch {
    return false;
  }
}

function sameLines(read: readonly string[], expected: readonly string[]): boolean {
  return read.length === expected.length && read.every((line, i) => line === expected[i]);
}

/** Adds one image's outcome to a row. */
function score(
  row: DocumentReadingRow,
  image: ManifestImage,
  reading: DocumentReading | null,
  cpuMs: number,
  wallMs: number,
) {
  row.images++;
  row.cpuMsPerRead += cpuMs;
  row.wallMsPerRead += wallMs;
  if (reading === null) row.failures++;
  const mrz = reading?.mrz ?? null;
  const barcode = reading?.barcode ?? null;

  if (image.mrz_lines) {
    const exact = mrz !== null && sameLines(mrz.lines, image.mrz_lines);
    const valid = mrz !== null && checkDigitsValid(mrz.lines);
    if (image.expected_readable) {
      row.mrzExpected++;
      if (exact) row.mrzExact++;
      if (valid) row.mrzCheckDigitsValid++;
    }
    if (valid && !exact) row.wrongReads++;
  } else if (mrz !== null) {
    row.phantomReads++;
  }

  if (image.barcode) {
    const read = barcode !== null && barcode.text === image.barcode.text;
    if (image.expected_readable) {
      row.barcodeExpected++;
      if (read) row.barcodeRead++;
    }
    if (barcode !== null && !read) row.wrongReads++;
  } else if (barcode !== null) {
    row.phantomReads++;
  }
}

function finishTimings(row: DocumentReadingRow) {
  if (row.images === 0) return;
  row.cpuMsPerRead /= row.images;
  row.wallMsPerRead /= row.images;
}

/**
 * Reads every image of the document manifest in `manifestDir` with `engine`, one at a time, and counts
 * per document side × degradation. CPU time is this process's and its children's (the engine reads in
 * forked worker processes, which `process.cpuUsage` does not see), so run nothing else meanwhile.
 *
 * @example
 * const report = await measureDocumentReading(createNodeVisionEngine(), DOCUMENT_FIXTURES_DIR);
 * console.log(report.total.mrzExact / report.total.mrzExpected);
 */
export async function measureDocumentReading(
  engine: VisionEngine,
  manifestDir: string = DOCUMENT_FIXTURES_DIR,
  options: { filter?: (image: ManifestImage) => boolean } = {},
): Promise<DocumentReadingReport> {
  const images = loadDocumentManifest(manifestDir).images.filter(options.filter ?? (() => true));
  const rows = new Map<string, DocumentReadingRow>();
  const total = emptyRow('all', 'all');
  let engineInfo: EngineInfo | null = null;
  let warmupMs = 0;

  const first = images[0];
  if (first) {
    const started = performance.now();
    await engine
      .readDocument(readFileSync(join(manifestDir, first.file)), readOptions(first))
      .catch(() => null);
    warmupMs = performance.now() - started;
  }

  for (const image of images) {
    const bytes = readFileSync(join(manifestDir, image.file));
    const cpuBefore = processTreeCpuMs().ms;
    const started = performance.now();
    const reading = await engine.readDocument(bytes, readOptions(image)).catch(() => null);
    const wallMs = performance.now() - started;
    const cpuMs = processTreeCpuMs().ms - cpuBefore;
    engineInfo ??= reading?.engine ?? null;

    const key = `${documentKey(image)}\u0000${image.degradation ?? 'clean'}`;
    const row = rows.get(key) ?? emptyRow(documentKey(image), image.degradation ?? 'clean');
    rows.set(key, row);
    score(row, image, reading, cpuMs, wallMs);
    score(total, image, reading, cpuMs, wallMs);
  }
  for (const row of [...rows.values(), total]) finishTimings(row);
  return { rows: [...rows.values()], total, warmupMs, engine: engineInfo };
}

/** `3/4` or `–` when nothing was expected. */
function ratio(hits: number, of: number): string {
  return of === 0 ? '–' : `${hits}/${of}`;
}

/** The report as a fixed-width text table. */
export function formatDocumentReadingReport(report: DocumentReadingReport): string {
  const header = [
    'document',
    'degradation',
    'n',
    'MRZ exact',
    'MRZ valid',
    'barcode',
    'phantom',
    'wrong',
    'failed',
    'CPU ms',
    'wall ms',
  ];
  const line = (row: DocumentReadingRow) => [
    row.document,
    row.degradation,
    String(row.images),
    ratio(row.mrzExact, row.mrzExpected),
    ratio(row.mrzCheckDigitsValid, row.mrzExpected),
    ratio(row.barcodeRead, row.barcodeExpected),
    String(row.phantomReads),
    String(row.wrongReads),
    String(row.failures),
    row.cpuMsPerRead.toFixed(0),
    row.wallMsPerRead.toFixed(0),
  ];
  const table = [header, ...report.rows.map(line), line(report.total)];
  const widths = header.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [
    render(header),
    rule,
    ...report.rows.map((row) => render(line(row))),
    rule,
    render(line(report.total)),
    '',
    `MRZ exact: every character of every line as printed. MRZ valid: check digits hold. phantom: a zone or barcode`,
    `reported where there is none. wrong: a check-digit-valid MRZ or a barcode that differs from the truth.`,
    `Unreadable-on-purpose images (glare_on_zone) are left out of the rates. First read (models loading): ${report.warmupMs.toFixed(0)} ms, not in the timings.`,
    `Engine: ${report.engine ? `${report.engine.kind}, ${report.engine.models.join(', ')}` : 'unknown'}`,
  ].join('\n');
}

async function main() {
  const at = process.argv.indexOf('--filter');
  const needle = at >= 0 ? process.argv[at + 1] : undefined;
  const engine = createNodeVisionEngine({ threads: 1 });
  try {
    const report = await measureDocumentReading(engine, DOCUMENT_FIXTURES_DIR, {
      filter: needle ? (image) => image.file.includes(needle) : undefined,
    });
    console.log(formatDocumentReadingReport(report));
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
