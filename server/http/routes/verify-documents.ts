import type { OpenAPIHono } from '@hono/zod-openapi';
import { createRoute, type RouteHandler, z } from '@hono/zod-openapi';
import { isAlpha3Country } from '../../domain/countries.ts';
import {
  BUSINESS_DOCUMENT_TYPES,
  ID_DOCUMENT_TYPES,
  PROOF_OF_ADDRESS_DOCUMENT_TYPES,
} from '../../domain/review/review-input.ts';
import { evidenceCipherContext } from '../../features/evidence/evidence-keys.ts';
import { evidenceServices } from '../../features/evidence/evidence-services.ts';
import { UnprocessableImageError } from '../../features/evidence/image-analyzer.ts';
import { assessQuality } from '../../features/evidence/quality.ts';
import { sniffImageType } from '../../features/evidence/sniff-image-type.ts';
import { SESSION_STATUSES } from '../../domain/session-status.ts';
import type { AppEnv } from '../app-env.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { RouteKit } from '../route-kit.ts';
import { insertDocumentReading } from '../../store/document-readings.ts';
import { countDocumentUploads, insertUpload } from '../../store/uploads.ts';
import { documentStepState } from '../../features/verify/document-step-state.ts';
import {
  formFile,
  formText,
  MAX_IMAGE_BYTES,
  MULTIPART_OVERHEAD_BYTES,
  multipartHook,
} from '../multipart.ts';
import { documentReadingRow, readDocumentPhoto } from '../../features/verify/read-document-photo.ts';
import { stepOf } from '../../features/verify/step-progress.ts';
import { discardImageBytes, storeImageBytes } from '../../features/verify/store-image.ts';
import { verifyCaller } from '../verify-context.ts';
import { verifyError } from '../../features/verify/verify-errors.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { recordStepOutcome, withWritableSession } from '../../features/verify/writable-session.ts';

/**
 * API.md §10: at most 12 document uploads per session. A photo refused for capture quality costs no
 * attempt, so this (with the per-session write rate limit) is what bounds free retakes: enough for a
 * person to retake each side several times and to switch to uploading a file, not a scripted loop.
 */
const MAX_DOCUMENT_UPLOADS = 12;
const DOCUMENT_FORM_LIMITS = {
  bodyBytes: MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES,
  fileBytes: MAX_IMAGE_BYTES,
};

const DOCUMENT_STEPS = ['id_document', 'proof_of_address', 'business_document'] as const;
type DocumentStep = (typeof DOCUMENT_STEPS)[number];

const DOCUMENT_TYPES_BY_STEP: Record<DocumentStep, readonly string[]> = {
  id_document: ID_DOCUMENT_TYPES,
  proof_of_address: PROOF_OF_ADDRESS_DOCUMENT_TYPES,
  business_document: BUSINESS_DOCUMENT_TYPES,
};
const ALL_DOCUMENT_TYPES = [...new Set(Object.values(DOCUMENT_TYPES_BY_STEP).flat())] as [
  string,
  ...string[],
];

/**
 * The upload's form, as documented and as validated (multipartHook turns its first problem into the 400
 * the end-user sees). Each message names its field, as the end-user's client shows it.
 */
const DocumentForm = z
  .strictObject({
    step: formText(
      z.enum(DOCUMENT_STEPS, {
        error: '`step` must be id_document, proof_of_address or business_document.',
      }),
    ),
    document_type: formText(
      z.enum(ALL_DOCUMENT_TYPES, {
        error: `\`document_type\` must be one of ${ALL_DOCUMENT_TYPES.join(', ')}.`,
      }),
    ).openapi({ example: 'id_card', description: 'One of the types the step accepts.' }),
    issuing_country: formText(
      z
        .string()
        .refine(isAlpha3Country, '`issuing_country` must be an ISO 3166-1 alpha-3 code such as DEU.')
        .optional(),
    ).openapi({ example: 'DEU', description: 'Required for id_document.' }),
    side: formText(z.enum(['front', 'back'], { error: '`side` must be front or back.' }).optional()).openapi({
      description: 'Default front; a passport has a front only.',
    }),
    // Last, so a problem with a text field is answered first.
    image: formFile('Attach exactly one photo as `image`.').openapi({ description: 'The photo.' }),
  })
  .superRefine((form, context) => {
    const types = DOCUMENT_TYPES_BY_STEP[form.step];
    if (!types.includes(form.document_type)) {
      context.addIssue({
        code: 'custom',
        path: ['document_type'],
        message: `\`document_type\` must be one of ${types.join(', ')}.`,
      });
    }
    if (form.side === 'back' && form.document_type === 'passport') {
      context.addIssue({ code: 'custom', path: ['side'], message: 'A passport needs its photo page only.' });
    }
    if (form.step === 'id_document' && form.issuing_country === undefined) {
      context.addIssue({ code: 'custom', path: ['issuing_country'], message: 'required for id_document' });
    }
  });

const UploadSchema = z
  .object({
    object: z.literal('upload'),
    upload_id: z.string().openapi({ example: 'upl_5Hc2…' }),
    step: z.enum(DOCUMENT_STEPS),
    document_type: z.enum(ALL_DOCUMENT_TYPES),
    side: z.enum(['front', 'back']),
    quality: z.object({
      ok: z.boolean(),
      issues: z.array(z.enum(['blurry', 'glare', 'too_dark', 'too_small', 'no_document'])),
    }),
    step_status: z.enum(['pending', 'completed']),
    attempts_remaining: z.number().int(),
    session_status: z.enum(SESSION_STATUSES),
    reading: z
      .object({
        mrz_read: z.boolean().openapi({ description: 'A machine-readable zone was read and checks out.' }),
        barcode_read: z.boolean().openapi({ description: 'A PDF417 barcode with licence data was read.' }),
        details_required: z.boolean().openapi({
          description:
            'Whether the end-user must still type the details: false once the document gave them whole (then `PUT /v1/verify/details` is optional).',
        }),
      })
      .optional()
      .openapi({
        description:
          'For `id_document` photos read by the server’s document reader; absent when the photo was not read (quality issues, no reader configured).',
      }),
  })
  .openapi('VerifyUpload');

export const verifyDocumentsRoute = createRoute({
  operationId: 'uploadVerifyDocument',
  method: 'post',
  path: '/v1/verify/documents',
  tags: ['End-user'],
  summary: 'Upload a document photo',
  description: `multipart/form-data with \`step\` (id_document | proof_of_address | business_document), \`document_type\`, \`issuing_country\` (ISO alpha-3, required for id_document), \`side\` (front | back; a passport has a front only) and \`image\` (JPEG, PNG or WebP, recognised from its bytes, ≤ 10 MB). At most ${MAX_DOCUMENT_UPLOADS} uploads per session. The answer's \`quality.issues\` tells the end-user what to fix and retake; a photo refused for capture quality (blurry, glare, too dark, too small, no document) is kept for the record but costs no attempt (\`attempts_remaining\` is unchanged), so a session is never rejected for capture quality; the ${MAX_DOCUMENT_UPLOADS}-upload limit bounds retakes. Where the server reads documents, an \`id_document\` photo's machine-readable zone, barcode and portrait are read (kept encrypted) and \`reading\` says whether the details still need typing; a photo that plainly is not the chosen document type (a selfie, a page of text) answers 422 \`document_type_mismatch\` with a \`user_message\`, is not kept and costs no attempt. A proof of address's text is read for the review.`,
  security: VERIFY_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: DocumentForm,
        },
      },
    },
  },
  responses: {
    201: {
      description: 'The stored upload and its quality',
      content: { 'application/json': { schema: UploadSchema } },
    },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'payload_too_large',
      'unprocessable_image',
      'document_type_mismatch',
      'steps_incomplete',
      'upload_limit_reached',
      'invalid_state_transition',
      'service_unavailable',
    ),
  },
});

export function registerVerifyDocuments(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  // The kit's middleware reads the form (its size capped while it streams) and DocumentForm validates it;
  // the photo's size and its type, told from its bytes, are checked here.
  const route = { ...verifyDocumentsRoute, middleware: verifyKit(app, kit).multipart(DOCUMENT_FORM_LIMITS) };
  const upload: RouteHandler<typeof route, AppEnv> = async (c) => {
    const caller = verifyCaller(c);
    const { images, blobs } = evidenceServices(deps);
    const { image: file, ...form } = c.req.valid('form');
    const fields = {
      step: form.step,
      documentType: form.document_type,
      side: form.side ?? 'front',
      issuingCountry: form.issuing_country ?? null,
    };
    if (file.size > MAX_IMAGE_BYTES) {
      throw verifyError('payload_too_large', 'This photo is too large. Photos may be at most 10 MB.', {
        param: 'image',
      });
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const format = sniffImageType(bytes);
    if (format === null) {
      throw verifyError('unsupported_media_type', 'Upload a photo as JPEG, PNG or WebP.', {
        param: 'image',
        headers: { accept: 'image/jpeg, image/png, image/webp' },
      });
    }
    let analysis: Awaited<ReturnType<typeof images.analyze>>;
    try {
      analysis = await images.analyze(bytes);
    } catch (error) {
      if (!(error instanceof UnprocessableImageError)) throw error;
      throw verifyError('unprocessable_image', 'We could not read this photo. Please take it again.', {
        param: 'image',
      });
    }
    const quality = assessQuality(analysis, 'document');

    // Cheap checks before storing anything; they are repeated under the lock below.
    await withWritableSession(deps, caller.session, { needs: ['consent'] }, async (tx, locked) => {
      if (!stepOf(locked.steps, fields.step)) {
        throw verifyError('invalid_parameter', 'This verification does not ask for this document.', {
          param: 'step',
        });
      }
      if ((await countDocumentUploads(tx, locked.id)) >= MAX_DOCUMENT_UPLOADS) {
        throw verifyError(
          'upload_limit_reached',
          'You have reached the maximum number of photos for this verification.',
        );
      }
    });
    // A photo with quality issues is retaken, not read. Reading runs here, outside any transaction: the
    // models take a while and no lock may wait for them. A photo of the wrong kind is refused before
    // anything is stored and costs no attempt.
    const reading = quality.ok ? await readDocumentPhoto(deps.vision, fields, bytes, deps.clock.now()) : null;
    const stored = await storeImageBytes(deps, blobs, caller.session, bytes);
    let result: Awaited<ReturnType<typeof recordStepOutcome>>;
    let detailsRequired = true;
    const answerOf = (outcome: typeof result) => {
      const progress = stepOf(outcome.steps, fields.step);
      return {
        object: 'upload' as const,
        upload_id: stored.id,
        step: fields.step,
        document_type: fields.documentType,
        side: fields.side,
        quality,
        step_status: progress?.status ?? 'pending',
        attempts_remaining: progress?.attempts_remaining ?? 0,
        session_status: outcome.status,
        ...(reading?.step === 'id_document'
          ? {
              reading: {
                mrz_read: reading.summary.mrz_valid,
                barcode_read: reading.summary.barcode_parsed,
                details_required: detailsRequired,
              },
            }
          : {}),
      };
    };
    // The answer is stored with the upload: a retry after a crash replays it, never spends a second attempt.
    const sealed = async (tx: SqlClient, outcome: typeof result) => {
      await answerInTransaction(c, tx, 201, answerOf(outcome));
      return outcome;
    };
    try {
      const readingRow = reading && (await documentReadingRow(deps, caller.session, stored.id, reading));
      result = await withWritableSession(deps, caller.session, { needs: ['consent'] }, async (tx, locked) => {
        if ((await countDocumentUploads(tx, locked.id)) >= MAX_DOCUMENT_UPLOADS) {
          throw verifyError(
            'upload_limit_reached',
            'You have reached the maximum number of photos for this verification.',
          );
        }
        await insertUpload(tx, {
          id: stored.id,
          tenant_id: locked.tenant_id,
          environment: locked.environment,
          session_id: locked.id,
          kind: 'document',
          step: fields.step,
          document_type: fields.documentType,
          side: fields.side,
          issuing_country_enc:
            fields.issuingCountry === null
              ? null
              : await deps.cipher.encrypt(
                  fields.issuingCountry,
                  evidenceCipherContext.issuingCountry(stored.id),
                ),
          liveness_challenge_id: null,
          frame_index: null,
          content_type: format,
          byte_size: bytes.length,
          width: analysis.width,
          height: analysis.height,
          quality: {
            ok: quality.ok,
            issues: quality.issues,
            sharpness: analysis.sharpness,
            glare_ratio: analysis.glareRatio,
            brightness: analysis.brightness,
          },
          sha256_index: stored.digest,
          blob_key: stored.blobKey,
          created_at: deps.clock.now(),
        });
        if (readingRow) await insertDocumentReading(tx, readingRow);
        // A capture-quality refusal was never judged: it leaves the step pending at no attempt's cost.
        if (!quality.ok) return sealed(tx, await recordStepOutcome(tx, deps, locked, fields.step, 'pending'));
        // One look at the step as stored (with this photo and its reading): complete, and details read?
        const { complete, detailsRead } = await documentStepState(tx, locked, fields.step);
        if (reading?.step === 'id_document') detailsRequired = !detailsRead;
        return sealed(
          tx,
          await recordStepOutcome(tx, deps, locked, fields.step, complete ? 'completed' : 'pending'),
        );
      });
    } catch (error) {
      await discardImageBytes(blobs, [stored.blobKey]);
      throw error;
    }
    return c.json(answerOf(result), 201);
  };
  app.openapi(route, upload, multipartHook(['image']));
}
