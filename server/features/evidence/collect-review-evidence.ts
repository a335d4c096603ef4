import type { FieldCipher } from '../../crypto/field-cipher.ts';
import type {
  BusinessDetails,
  CapturedDocument,
  IdDocumentEvidence,
  ReviewEvidence,
} from '../../domain/review/review-input.ts';
import { documentNumberReadByOtherReference } from '../../store/document-readings.ts';
import { isDocumentNumberOnOtherIdentity } from '../../store/identities.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { imageDigestUsedElsewhere, type UploadRow } from '../../store/uploads.ts';
import { findVerifyConsent } from '../../store/verify-consents.ts';
import { documentNumberUsedByOtherReference, listVerifyDetails } from '../../store/verify-details.ts';
import {
  documentReadingEvidence,
  faceMatchEvidence,
  portraitReference,
  readMrzEvidence,
} from './document-reading-evidence.ts';
import { countedPhotos, sideOf } from './counted-photos.ts';
import { findEnrolledReference } from './enrolled-reference.ts';
import { documentNumberIndex as documentNumberIndexOf, evidenceCipherContext } from './evidence-keys.ts';
import { livenessEvidenceOf } from './liveness-evidence.ts';
import { type ApprovalSources, approvalSourcesOf, readSessionEvidence } from './session-evidence.ts';
import type { StoredBusinessDetails, StoredIdDocumentDetails, StoredMrz } from './stored-details.ts';

/** The evidence the review reads: everything but the watchlist screening, which the review runs itself. */
export type CollectedEvidence = Omit<ReviewEvidence, 'watchlist'>;

/** The photos of a document step that count (`countedPhotos`), as the review judges them. */
function capturedDocument(counted: readonly UploadRow[]): CapturedDocument | undefined {
  const latest = counted.at(-1);
  if (!latest) return undefined;
  return {
    document_type: latest.document_type ?? '',
    images: counted.map((upload) => ({
      side: sideOf(upload),
      quality: { ok: upload.quality.ok, issues: upload.quality.issues },
    })),
  };
}

/**
 * The issuing country chosen with the latest upload of the reviewed document, decrypted; null when that
 * upload has none (e.g. no upload yet).
 */
async function issuingCountryOf(
  deps: { cipher: FieldCipher },
  upload: UploadRow | undefined,
): Promise<string | null> {
  if (!upload?.issuing_country_enc) return null;
  return deps.cipher.decrypt(upload.issuing_country_enc, evidenceCipherContext.issuingCountry(upload.id));
}

/** One read of a session's evidence for a decision: the review's evidence and the approval's sources. */
export interface SessionEvidence extends ApprovalSources {
  /** What the review judges (without the watchlist screening, which the review runs itself). */
  review: CollectedEvidence;
}

/**
 * Gathers what the end-user submitted for a session, decrypted, in the exact shape of the automated
 * review's `ReviewEvidence` (without `watchlist`), with the stated nationality and the document's
 * issuing country for the identity vault. What the vision engine read comes along: the identity
 * document's `reading` (MRZ, barcode, portrait), which also supplies the `mrz` when none was typed and
 * the `details` when none were typed; the liveness judgement; the face match's reference (the enrolled
 * face for a re-verification, else the document portrait) and probes (the liveness frames); the proof of
 * address's text. A member is absent when nothing was collected for it;
 * `duplicates` is always present because the look-ups always run: the same document number confirmed
 * in a session, or held by an identity, of another `external_user_reference` (or an anonymous one) in the
 * tenant and environment, and any of this session's image bytes uploaded in another session.
 *
 * The uploads, document readings and liveness readings are read once (`readSessionEvidence`), and what an
 * approval takes from them besides (the details read off the document for the vault, the liveness frame
 * to enrol) comes with the review's evidence, so the decision reads and decrypts nothing again.
 *
 * @example
 * const { review, documentDetails, faceReference } = await collectSessionEvidence(deps.db, deps, session);
 * decide({ session, evidence: { ...review, watchlist }, policy, environment, now });
 */
export async function collectSessionEvidence(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<SessionEvidence> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const [consent, details, submitted, enrolled] = await Promise.all([
    findVerifyConsent(sql, scope, session.id),
    listVerifyDetails(sql, scope, session.id),
    readSessionEvidence(sql, deps, session),
    findEnrolledReference(sql, deps, session),
  ]);
  const { uploads, idReadings, addressReading } = submitted;
  const sources = approvalSourcesOf(submitted);
  const read = sources.documentDetails;
  const liveness = livenessEvidenceOf(submitted.liveness);
  const evidence: CollectedEvidence = {};
  if (consent) evidence.consent = { accepted: consent.accepted };

  const idDetails = details.find((row) => row.step === 'id_document');
  const idPhotos = countedPhotos(uploads, 'id_document');
  const idDocument = capturedDocument(idPhotos);
  const reading = documentReadingEvidence(idReadings);
  if (idDocument || idDetails) {
    const document: IdDocumentEvidence = idDocument ?? { document_type: '', images: [] };
    const issuingCountry = await issuingCountryOf(deps, idPhotos.at(-1));
    if (issuingCountry !== null) document.issuing_country = issuingCountry;
    if (idDetails) {
      const stored = await deps.cipher.decryptJson<StoredIdDocumentDetails>(
        idDetails.details_enc,
        evidenceCipherContext.details(session.id, 'id_document'),
      );
      document.details = {
        first_name: stored.first_name,
        last_name: stored.last_name,
        date_of_birth: stored.date_of_birth,
        document_number: stored.document_number,
        expiry_date: stored.expiry_date,
        // Details stored before nationality was asked for have none; the identity then says null.
        ...(stored.nationality ? { nationality: stored.nationality } : {}),
      };
      if (idDetails.mrz_enc) {
        const mrz = await deps.cipher.decryptJson<StoredMrz>(
          idDetails.mrz_enc,
          evidenceCipherContext.mrz(session.id),
        );
        document.mrz = mrz.parsed;
      }
    } else if (read) {
      // Nothing typed: the details are the document's own (the end-user may skip typing them).
      document.details = { ...read.details };
      document.details_source = read.source;
    }
    if (reading) {
      document.reading = reading;
      if (!document.mrz && reading.mrz) document.mrz = readMrzEvidence(reading.mrz);
    }
    evidence.id_document = document;
  }
  if (liveness) evidence.liveness = liveness.liveness;
  const faceMatch = faceMatchEvidence(
    enrolled ? { source: 'enrolled_selfie', ...enrolled } : portraitReference(idReadings),
    liveness,
  );
  if (faceMatch) evidence.face_match = faceMatch;
  const proofOfAddress = capturedDocument(countedPhotos(uploads, 'proof_of_address'));
  if (proofOfAddress) {
    evidence.proof_of_address = addressReading
      ? {
          ...proofOfAddress,
          reading: {
            text: addressReading.text,
            confidence: addressReading.confidence,
            engine: addressReading.engine,
          },
        }
      : proofOfAddress;
  }
  const businessDocument = capturedDocument(countedPhotos(uploads, 'business_document'));
  if (businessDocument) evidence.business_document = businessDocument;
  const businessRow = details.find((row) => row.step === 'business_details');
  if (businessRow) {
    const stored = await deps.cipher.decryptJson<StoredBusinessDetails>(
      businessRow.details_enc,
      evidenceCipherContext.details(session.id, 'business_details'),
    );
    const business: BusinessDetails = {
      legal_name: stored.legal_name,
      registration_number: stored.registration_number,
      jurisdiction: stored.jurisdiction,
    };
    evidence.business_details = business;
  }

  const readNumber = idDetails ? undefined : read?.details.document_number;
  const documentNumberIndex =
    idDetails?.document_number_index ??
    (readNumber ? await documentNumberIndexOf(deps.cipher, readNumber) : null);
  evidence.duplicates = {
    document_number_used_by_other_reference:
      documentNumberIndex !== null &&
      ((await documentNumberUsedByOtherReference(
        sql,
        scope,
        session.id,
        documentNumberIndex,
        session.external_user_ref_index,
      )) ||
        // Sessions whose details came from the document alone have no typed number.
        (await documentNumberReadByOtherReference(
          sql,
          scope,
          session.id,
          documentNumberIndex,
          session.external_user_ref_index,
        )) ||
        // Identities keep the number after retention removed the sessions' details.
        (await isDocumentNumberOnOtherIdentity(
          sql,
          scope,
          documentNumberIndex,
          session.external_user_ref_index,
          session.identity_id,
        ))),
    image_reused_in_other_session: await imageDigestUsedElsewhere(
      sql,
      scope,
      session.id,
      uploads.map((upload) => upload.sha256_index),
    ),
  };
  return { review: evidence, ...sources };
}

/**
 * The review's evidence alone (`collectSessionEvidence` without the approval's sources): for the
 * reviewer's comparison of the document's details, the name index, and the host's `EvidenceCollector`.
 *
 * @example
 * const evidence = await collectReviewEvidence(deps.db, deps, session);
 * evidence.id_document?.details?.document_number // 'L898902C3'
 */
export async function collectReviewEvidence(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<CollectedEvidence> {
  return (await collectSessionEvidence(sql, deps, session)).review;
}
