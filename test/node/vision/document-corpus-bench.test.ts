import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import {
  classifyReading,
  documentCorpusJson,
  listCorpus,
  summarise,
} from '../../../bench/accuracy/document-corpus.ts';
import { readDetailsOf } from '../../../server/features/evidence/document-reading-details.ts';
import { recordIdDocumentReading } from '../../../server/features/evidence/document-reading-record.ts';
import type { PhotoReading } from '../../../server/features/verify/read-document-photo.ts';
import type { DocumentReading } from '../../../server/features/vision/vision-engine.ts';
import { DOCUMENT_FIXTURES_DIR } from '../../fixtures/vision/documents/manifest.ts';

const UTOPIA = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
const NOW = new Date('2026-11-28T12:00:00Z');

/** What `readDocumentPhoto` returns when the engine read `lines` (null: no zone found). */
function photoReading(lines: string[] | null, uncertain?: number[][]): PhotoReading {
  const engine = { kind: 'models' as const, models: ['test'] };
  const reading: DocumentReading = {
    layout: { found: true, aspectRatio: 1.42, deskewDegrees: 0 },
    mrz: lines ? { lines, confidence: 0.9, ...(uncertain ? { uncertain } : {}) } : null,
    barcode: null,
    faces: {
      width: 100,
      height: 100,
      faces: [],
      embeddingSpace: { name: 'test', metric: 'euclidean', threshold: 0.6 },
      engine,
    },
    textLineCount: 12,
    engine,
  };
  const { stored, summary } = recordIdDocumentReading(reading, NOW);
  return { step: 'id_document', stored, summary, details: readDetailsOf(stored) };
}

describe('document corpus bench (bench/accuracy/document-corpus.ts)', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'idv-doc-corpus-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('lists every <name>.jpg with its <name>.mrz, recursively, the sub-directory naming the condition', () => {
    const corpus = join(root, 'list');
    mkdirSync(join(corpus, 'glare_band'), { recursive: true });
    writeFileSync(join(corpus, 'top.jpg'), '');
    writeFileSync(join(corpus, 'top.mrz'), `${UTOPIA.join('\n')}\n\n`);
    writeFileSync(join(corpus, 'glare_band', 'td1-01.jpg'), '');
    writeFileSync(
      join(corpus, 'glare_band', 'td1-01.mrz'),
      'I<UTOD231458907<<<<<<<<<<<<<<<\r\n7408122F1204159UTO<<<<<<<<<<<6\r\nERIKSSON<<ANNA<MARIA<<<<<<<<<<\r\n',
    );
    writeFileSync(join(corpus, 'glare_band', 'no-zone.jpg'), ''); // no .mrz: not part of the corpus

    const images = listCorpus(corpus);

    assert.deepEqual(
      images.map((image) => [image.name, image.condition, image.shape, image.expected.length]),
      [
        ['glare_band/td1-01', 'glare_band', 'TD1', 3],
        ['top', '.', 'TD3', 2],
      ],
    );
    assert.equal(images[1]!.expected[1], UTOPIA[1]);
  });

  it('classifies: exact, wrong_accepted (a valid zone that differs), unread (invalid, none, refused)', () => {
    // The names have no check digit: a wrong letter there still verifies, the case that must be caught.
    const wrongName = [UTOPIA[0]!.replace('ANNA', 'ANNE'), UTOPIA[1]!];
    const brokenCheckDigit = [UTOPIA[0]!, UTOPIA[1]!.replace('L898902C36', 'L898902C35')];

    assert.equal(classifyReading(photoReading(UTOPIA), UTOPIA).outcome, 'exact');
    assert.equal(classifyReading(photoReading(wrongName), UTOPIA).outcome, 'wrong_accepted');
    assert.deepEqual(classifyReading(photoReading(brokenCheckDigit), UTOPIA), {
      outcome: 'unread',
      read: brokenCheckDigit,
      reason: 'not_valid',
    });
    assert.equal(classifyReading(photoReading(null), UTOPIA).reason, 'no_zone');
    // A letter of the names read without confidence: unread, and told apart by whether it was as printed.
    const namesInDoubt = (lines: string[]) => photoReading(lines, [[8], []]);
    assert.deepEqual(classifyReading(namesInDoubt(UTOPIA), UTOPIA), {
      outcome: 'unread',
      read: UTOPIA,
      reason: 'names_to_confirm',
    });
    assert.equal(classifyReading(namesInDoubt(wrongName), UTOPIA).reason, 'names_to_confirm_misread');
    // A doubt outside the names (the document number) is not a names-only doubt.
    assert.equal(classifyReading(photoReading(UTOPIA, [[8], [2]]), UTOPIA).reason, 'not_valid');
    assert.equal(classifyReading(null, UTOPIA, 'document_type_mismatch').outcome, 'unread');
  });

  it('prints the totals first in the JSON line, then per condition and zone', () => {
    const image = (condition: string) => ({
      file: '',
      name: condition,
      condition,
      expected: UTOPIA,
      shape: 'TD3' as const,
    });
    const result = (condition: string, outcome: 'exact' | 'wrong_accepted' | 'unread') => ({
      image: image(condition),
      outcome,
      read: null,
      reason: null,
      cpuMs: 10,
      wallMs: 10,
    });
    const report = summarise([result('a', 'exact'), result('a', 'unread'), result('b', 'wrong_accepted')]);

    const json = JSON.parse(documentCorpusJson(report));

    assert.deepEqual(Object.keys(json).slice(0, 4), ['total', 'exact', 'wrong_accepted', 'unread']);
    assert.deepEqual([json.total, json.exact, json.wrong_accepted, json.unread], [3, 1, 1, 1]);
    assert.deepEqual(json.conditions.a, { total: 2, exact: 1, wrong_accepted: 0, unread: 1 });
    assert.equal(json.zones.TD3.total, 3);
    assert.equal(json.expected_invalid, 0);
  });

  it('`bench:accuracy --documents <dir> --json` reads with the real engine and ends with the JSON line alone', async () => {
    // Two photos: a committed passport fixture, and a utility bill labelled with a zone it does not carry.
    // What the engine makes of them is the bench's to report, not this test's to judge.
    const corpus = join(root, 'run');
    mkdirSync(join(corpus, 'desk'), { recursive: true });
    copyFileSync(join(DOCUMENT_FIXTURES_DIR, 'passport-astronaut.jpg'), join(corpus, 'desk', 'passport.jpg'));
    writeFileSync(
      join(corpus, 'desk', 'passport.mrz'),
      'P<NLDVAN<DIJK<<MARIA<ELENA<<<<<<<<<<<<<<<<<<\nNXR8K4P275NLD7803141F3406016<<<<<<<<<<<<<<<6\n',
    );
    copyFileSync(join(DOCUMENT_FIXTURES_DIR, 'utility_bill-astronaut.jpg'), join(corpus, 'desk', 'bill.jpg'));
    writeFileSync(join(corpus, 'desk', 'bill.mrz'), `${UTOPIA.join('\n')}\n`);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bench/accuracy/run.ts', '--documents', corpus, '--json'],
      { cwd: join(import.meta.dirname, '../../..'), maxBuffer: 16 * 1024 * 1024 },
    );

    const lines = stdout.trimEnd().split('\n');
    const json = JSON.parse(lines.at(-1)!);
    assert.deepEqual(Object.keys(json).slice(0, 4), ['total', 'exact', 'wrong_accepted', 'unread']);
    assert.equal(json.total, 2);
    assert.equal(json.exact + json.wrong_accepted + json.unread, 2);
    assert.match(stdout, /^desk\s+2\s/m);
    assert.doesNotMatch(stdout, /Face match|Liveness|session cost/i);
  });
});
