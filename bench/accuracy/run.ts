// `npm run bench:accuracy [-- --pairs <dir>] [-- --database-url postgres://…]`: how well the automated
// verification reads documents, matches faces and judges liveness, and what a reviewed session costs, in
// one run on this machine, with the models the server ships.
//
// 1. MRZ exact-read and barcode read rates per document type and degradation (documents.ts);
// 2. face match false accept / false reject rates at the embedder's published threshold (faces.ts);
// 3. liveness pass rate on genuine sequences and catch rate per attack kind (faces.ts);
// 4. with `--pairs <dir> [--half A|B|all] [--json] [--face-cache <file>]`, instead of everything else: the face match's zones,
//    a DET table and FAR/FRR on a face-pair set by identity (`people/<name>/`), in the LFW `pairs.txt` or
//    in the `same/` `different/` layout (lfw-pairs.ts); `--json` prints one JSON object last;
// 5. CPU time and peak memory of a real server per reviewed tier2 session (session-cost.ts).
//
// It reports and never judges: nothing here tunes a threshold, and the test suite asserts no rate.
// The generated sets are small and synthetic: docs/verification.md says what they do and do not show.
import { parseArgs } from 'node:util';
import { judgeLiveness } from '../../server/domain/liveness-judgement.ts';
import { createNodeVisionEngine } from '../../server/runtime/node/vision/node-vision-engine.ts';
import {
  DOCUMENT_FIXTURES_DIR,
  loadDocumentManifest,
} from '../../test/fixtures/vision/documents/manifest.ts';
import { loadSelfieManifest } from '../../test/fixtures/vision/selfies/manifest.ts';
import { runDocumentCorpusBench } from './document-corpus.ts';
import { formatDocumentReadingReport, measureDocumentReading } from './documents.ts';
import {
  fixtureFacePairs,
  formatFaceMatchReport,
  formatLivenessReport,
  measureFaceMatch,
  measureLiveness,
} from './faces.ts';
import { parseHalf, runFacePairsBench } from './lfw-pairs.ts';
import { formatSessionCostReport, measureSessionCost } from './session-cost.ts';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', multiple: true },
    half: { type: 'string' },
    'database-url': { type: 'string' },
    sessions: { type: 'string', default: '3' },
    documents: { type: 'string' },
    json: { type: 'boolean', default: false },
    'face-cache': { type: 'string' },
  },
});

// `--documents <dir> [--json]`: the document corpus alone (document-corpus.ts); the unrelated slow parts
// (faces, liveness, session cost) are not run.
if (values.documents) {
  await runDocumentCorpusBench(values.documents, { json: values.json });
  process.exit(0);
}

// `--pairs <dir> [--half A|B|all] [--json] [--face-cache <file>]`: the face-pair set alone (lfw-pairs.ts),
// likewise. `--pairs` given more than once pools identity-layout sets: that half of each, scored together.
if (values.pairs && values.pairs.length > 0) {
  await runFacePairsBench(values.pairs, {
    json: values.json,
    half: parseHalf(values.half),
    faceCache: values['face-cache'],
  });
  process.exit(0);
}

const engine = createNodeVisionEngine({ threads: 1 });
try {
  console.log(formatDocumentReadingReport(await measureDocumentReading(engine, DOCUMENT_FIXTURES_DIR)));
  console.log('');
  const selfies = loadSelfieManifest();
  const documents = loadDocumentManifest();
  console.log(formatFaceMatchReport(await measureFaceMatch(engine, fixtureFacePairs(selfies, documents))));
  console.log('');
  console.log(formatLivenessReport(await measureLiveness(engine, judgeLiveness, selfies)));
} finally {
  await engine.close();
}
console.log('');
console.log(
  formatSessionCostReport(
    await measureSessionCost({
      count: Number(values.sessions),
      ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}),
    }),
  ),
);
