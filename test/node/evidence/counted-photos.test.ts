// "Which photos count" (issue 23): one rule, used by the step's progress at upload, by the review's
// captured documents and by the readings the review and the vault read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countedPhotos, type PhotoOfStep } from '../../../server/features/evidence/counted-photos.ts';
import { documentSidesAccepted } from '../../../server/features/verify/step-progress.ts';

type Photo = PhotoOfStep & { name: string; quality: { ok: boolean } };

function photo(name: string, fields: Partial<Photo> = {}): Photo {
  return {
    name,
    kind: 'document',
    step: 'id_document',
    document_type: 'id_card',
    side: 'front',
    quality: { ok: true },
    ...fields,
  };
}

const names = (photos: readonly Photo[]) => photos.map((entry) => entry.name);

describe('countedPhotos', () => {
  it('counts nothing for a step without photos', () => {
    assert.deepEqual(countedPhotos([], 'id_document'), []);
    assert.deepEqual(countedPhotos([photo('poa', { step: 'proof_of_address' })], 'id_document'), []);
  });

  it('keeps the latest photo of each side, in upload order', () => {
    const uploads = [
      photo('front-1'),
      photo('back-1', { side: 'back' }),
      photo('front-2'),
      photo('back-2', { side: 'back', quality: { ok: false } }),
    ];
    assert.deepEqual(names(countedPhotos(uploads, 'id_document')), ['front-2', 'back-2']);
  });

  it('counts only the document type of the step’s latest upload', () => {
    const uploads = [
      photo('card-front'),
      photo('passport', { document_type: 'passport' }),
      photo('card-back', { side: 'back' }),
    ];
    assert.deepEqual(names(countedPhotos(uploads, 'id_document')), ['card-front', 'card-back']);
    const switched = [...uploads, photo('passport-2', { document_type: 'passport' })];
    assert.deepEqual(names(countedPhotos(switched, 'id_document')), ['passport-2']);
  });

  it('keeps each step apart, and leaves liveness frames out', () => {
    const uploads = [
      photo('id-front'),
      photo('poa-front', { step: 'proof_of_address', document_type: 'utility_bill' }),
      photo('frame', { kind: 'liveness_frame', step: 'liveness', document_type: null, side: null }),
      photo('id-back', { side: 'back' }),
    ];
    assert.deepEqual(names(countedPhotos(uploads, 'id_document')), ['id-front', 'id-back']);
    assert.deepEqual(names(countedPhotos(uploads, 'proof_of_address')), ['poa-front']);
    assert.deepEqual(countedPhotos(uploads, 'liveness'), []);
  });

  it('takes a photo without a side for its front', () => {
    const uploads = [photo('no-side', { side: null }), photo('front')];
    assert.deepEqual(names(countedPhotos(uploads, 'id_document')), ['front']);
  });
});

describe('documentSidesAccepted (on the photos that count)', () => {
  it('needs front and back of a card, the front of a passport', () => {
    assert.equal(documentSidesAccepted('id_document', [photo('front')]), false);
    assert.equal(
      documentSidesAccepted('id_document', [photo('front'), photo('back', { side: 'back' })]),
      true,
    );
    assert.equal(
      documentSidesAccepted('id_document', [photo('passport', { document_type: 'passport' })]),
      true,
    );
  });

  it('judges the latest photo of a side: a good retake fixes a blurry one, a blurry retake undoes a good one', () => {
    const blurry = { quality: { ok: false } };
    const front = photo('front');
    const back = photo('back', { side: 'back' });
    assert.equal(documentSidesAccepted('id_document', [photo('f', blurry), back, front]), true);
    assert.equal(documentSidesAccepted('id_document', [front, back, photo('f', blurry)]), false);
  });

  it('forgets the sides of another document type once the end-user switched', () => {
    const card = [photo('front'), photo('back', { side: 'back' })];
    assert.equal(documentSidesAccepted('id_document', card), true);
    const licenceFront = photo('licence', { document_type: 'driving_licence' });
    assert.equal(documentSidesAccepted('id_document', [...card, licenceFront]), false);
  });

  it('needs the front alone of a proof of address', () => {
    const bill = photo('bill', { step: 'proof_of_address', document_type: 'utility_bill' });
    assert.equal(documentSidesAccepted('proof_of_address', [bill]), true);
    assert.equal(documentSidesAccepted('proof_of_address', [photo('id-front')]), false);
  });
});
