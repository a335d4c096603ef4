import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeDocumentPhoto } from '../../../server/domain/document-photo-kind.ts';
import type { DocumentReading } from '../../../server/features/vision/vision-engine.ts';
import { analysis, face, MODELS } from './vision-fixtures.ts';

const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];

/** A passport data page as the engine reads it: outline found, portrait (small), MRZ, some text. */
function passportPage(overrides: Partial<DocumentReading> = {}): DocumentReading {
  return {
    layout: { found: true, aspectRatio: 1.42, deskewDegrees: 2 },
    mrz: { lines: TD3, confidence: 0.93 },
    barcode: null,
    faces: analysis([face({ box: { x: 60, y: 120, width: 160, height: 200 } })], {
      width: 1600,
      height: 1130,
    }),
    textLineCount: 14,
    engine: MODELS,
    ...overrides,
  };
}

/** A selfie: one large face, no document, no text. */
const selfie: DocumentReading = {
  layout: { found: false, aspectRatio: 0.75, deskewDegrees: 0 },
  mrz: null,
  barcode: null,
  faces: analysis([face({ box: { x: 150, y: 200, width: 420, height: 520 } })], { width: 720, height: 960 }),
  textLineCount: 0,
  engine: MODELS,
};

/** A utility bill: a page of text, no face, no zone. */
const bill: DocumentReading = {
  layout: { found: true, aspectRatio: 0.71, deskewDegrees: 1 },
  mrz: null,
  barcode: null,
  faces: analysis([], { width: 1200, height: 1700 }),
  textLineCount: 42,
  engine: MODELS,
};

/** A photo of a coffee cup: nothing document-like. */
const coffee: DocumentReading = {
  layout: { found: false, aspectRatio: 1.5, deskewDegrees: 0 },
  mrz: null,
  barcode: null,
  faces: analysis([], { width: 600, height: 400 }),
  textLineCount: 0,
  engine: MODELS,
};

describe('document photo kind: refusals on strong evidence', () => {
  it('refuses a selfie uploaded as a passport', () => {
    assert.deepEqual(judgeDocumentPhoto(selfie, 'passport', 'front'), { ok: false, seen: 'selfie' });
  });

  it('refuses a bill uploaded as the front of an identity document', () => {
    assert.deepEqual(judgeDocumentPhoto(bill, 'id_card', 'front'), { ok: false, seen: 'text_page' });
    assert.deepEqual(judgeDocumentPhoto(bill, 'passport', 'front'), { ok: false, seen: 'text_page' });
  });

  it('refuses a photo with nothing document-like', () => {
    assert.deepEqual(judgeDocumentPhoto(coffee, 'driving_licence', 'front'), {
      ok: false,
      seen: 'no_document',
    });
  });

  it('refuses an identity card uploaded as a passport, and a passport uploaded as a card', () => {
    const card = passportPage({
      mrz: { lines: TD1, confidence: 0.9 },
      layout: { found: true, aspectRatio: 1.586, deskewDegrees: 0 },
    });
    assert.deepEqual(judgeDocumentPhoto(card, 'passport', 'front'), { ok: false, seen: 'other_document' });
    assert.deepEqual(judgeDocumentPhoto(passportPage(), 'id_card', 'back'), {
      ok: false,
      seen: 'other_document',
    });
  });

  it('refuses a driving-licence back (a PDF417) uploaded as a passport', () => {
    const licenceBack = passportPage({ mrz: null, barcode: { format: 'PDF417', text: '@\n\x1e\rANSI ...' } });
    assert.deepEqual(judgeDocumentPhoto(licenceBack, 'passport', 'front'), {
      ok: false,
      seen: 'other_document',
    });
  });

  it('refuses an identity document uploaded as a proof of address', () => {
    assert.deepEqual(judgeDocumentPhoto(passportPage(), 'utility_bill', 'front'), {
      ok: false,
      seen: 'other_document',
    });
  });
});

describe('document photo kind: never refusing a genuine document read badly', () => {
  it('accepts a passport page that was read well', () => {
    assert.deepEqual(judgeDocumentPhoto(passportPage(), 'passport', 'front'), { ok: true });
  });

  it('accepts a passport page whose MRZ and outline were missed but whose portrait is document-sized', () => {
    const poorlyRead = passportPage({
      mrz: null,
      layout: { found: false, aspectRatio: 1.33, deskewDegrees: 0 },
    });
    assert.deepEqual(judgeDocumentPhoto(poorlyRead, 'passport', 'front'), { ok: true });
  });

  it('accepts a card photographed so close that its portrait is large, since its text is read', () => {
    const closeUp = passportPage({
      mrz: null,
      layout: { found: false, aspectRatio: 1.6, deskewDegrees: 0 },
      faces: analysis([face({ box: { x: 40, y: 150, width: 260, height: 330 } })], {
        width: 1000,
        height: 630,
      }),
      textLineCount: 9,
    });
    assert.deepEqual(judgeDocumentPhoto(closeUp, 'id_card', 'front'), { ok: true });
  });

  it('accepts a card with a ghost image (two faces) even when large', () => {
    const ghost = {
      ...selfie,
      faces: analysis([face(), face({ box: { x: 0, y: 0, width: 40, height: 50 } })]),
    };
    assert.deepEqual(judgeDocumentPhoto(ghost, 'id_card', 'front'), { ok: true });
  });

  it('accepts the back of a card full of text and without a face (no portrait on backs)', () => {
    assert.deepEqual(judgeDocumentPhoto(bill, 'id_card', 'back'), { ok: true });
  });

  it('accepts a page of text as a proof of address', () => {
    assert.deepEqual(judgeDocumentPhoto(bill, 'bank_statement', 'front'), { ok: true });
  });

  it('accepts an identity front with a fair amount of text and the portrait missed', () => {
    const glare = {
      ...bill,
      layout: { found: true, aspectRatio: 1.58, deskewDegrees: 0 },
      textLineCount: 18,
    };
    assert.deepEqual(judgeDocumentPhoto(glare, 'id_card', 'front'), { ok: true });
  });

  it('accepts a blank-looking photo when an outline was found', () => {
    const outline = { ...coffee, layout: { found: true, aspectRatio: 1.58, deskewDegrees: 0 } };
    assert.deepEqual(judgeDocumentPhoto(outline, 'id_card', 'front'), { ok: true });
  });

  it('accepts a card with a TD2 zone as an identity card, and a TD1 card as a residence permit', () => {
    const td2 = passportPage({
      mrz: {
        lines: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
        confidence: 0.9,
      },
    });
    assert.deepEqual(judgeDocumentPhoto(td2, 'id_card', 'front'), { ok: true });
    const permit = passportPage({ mrz: { lines: TD1, confidence: 0.9 } });
    assert.deepEqual(judgeDocumentPhoto(permit, 'residence_permit', 'back'), { ok: true });
  });
});
