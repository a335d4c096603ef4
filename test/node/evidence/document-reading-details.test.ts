import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readDetailsOf } from '../../../server/features/evidence/document-reading-details.ts';
import { documentReadingEvidence } from '../../../server/features/evidence/document-reading-evidence.ts';
import { recordIdDocumentReading } from '../../../server/features/evidence/document-reading-record.ts';
import type { DocumentReading, MrzReading } from '../../../server/features/vision/vision-engine.ts';

/** The ICAO Doc 9303 TD3 specimen (Utopia). */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const now = new Date('2025-01-01T00:00:00Z');

function reading(mrz: MrzReading): DocumentReading {
  return {
    layout: { found: true, aspectRatio: 1.42, deskewDegrees: 0 },
    mrz,
    barcode: null,
    faces: {
      width: 1600,
      height: 1200,
      faces: [],
      embeddingSpace: { name: 'test', metric: 'euclidean', threshold: 0.6 },
      engine: { kind: 'models', models: ['test'] },
    },
    textLineCount: 10,
    engine: { kind: 'models', models: ['test'] },
  };
}

describe('what a read zone gives the end-user', () => {
  it('a zone read whole and sure fills the details, nothing to confirm', () => {
    const { stored, summary } = recordIdDocumentReading(
      reading({ lines: TD3, confidence: 0.99, uncertain: [[], []] }),
      now,
    );
    assert.equal(summary.mrz_valid, true);
    assert.equal(summary.details_required, false);
    assert.equal(readDetailsOf(stored)?.details.document_number, 'L898902C3');
  });

  it('a name character read unsure: the details are offered, and the person must confirm them', () => {
    const { stored, summary } = recordIdDocumentReading(
      reading({ lines: TD3, confidence: 0.97, uncertain: [[9], []] }),
      now,
    );
    assert.equal(summary.mrz_valid, false, 'not presented as read (the upload answers mrz_read: false)');
    assert.equal(summary.details_source, 'mrz');
    assert.equal(summary.details_required, true);
    assert.equal(summary.names_uncertain, true);
    assert.equal(readDetailsOf(stored)?.details.last_name, 'ERIKSSON');
    // The review keeps the zone's checked fields and leaves the unsure names out of every comparison.
    const evidence = documentReadingEvidence([{ upload: { side: 'front' }, stored }]);
    assert.equal(evidence?.mrz?.check_digits_valid, true);
    assert.equal(evidence?.mrz?.document_number, 'L898902C3');
    assert.equal(evidence?.mrz?.last_name, '');
  });

  it('an unsure character under a check digit: nothing is presented as read, even though the digit verifies', () => {
    const { stored, summary } = recordIdDocumentReading(
      reading({ lines: TD3, confidence: 0.98, uncertain: [[], [4]] }),
      now,
    );
    assert.equal(summary.mrz_found, true);
    assert.equal(summary.mrz_valid, false);
    assert.equal(summary.details_source, null);
    assert.equal(summary.details_required, true);
    assert.equal(readDetailsOf(stored), null);
    // The review sees a zone whose check digits do not count, and no confidence that could call the
    // document altered: an unsure read is a misread, never evidence of tampering.
    const evidence = documentReadingEvidence([{ upload: { side: 'front' }, stored }]);
    assert.equal(evidence?.mrz?.check_digits_valid, false);
    assert.equal(evidence?.mrz_confidence, undefined);
  });

  it('readings from engines that do not report certainty are taken as before', () => {
    const { summary } = recordIdDocumentReading(reading({ lines: TD3, confidence: 0.9 }), now);
    assert.equal(summary.mrz_valid, true);
    assert.equal(summary.details_required, false);
  });
});
