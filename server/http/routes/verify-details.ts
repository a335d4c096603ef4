import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { isAlpha3Country } from '../../domain/countries.ts';
import { MrzFormatError, parseMrz, toReviewMrz } from '../../domain/mrz.ts';
import { parseCalendarDate } from '../../domain/review/calendar.ts';
import { contradictedFields } from '../../domain/review/mrz-comparison.ts';
import { readIdDocumentDetails } from '../../features/evidence/document-reading-of-session.ts';
import {
  documentNumberIndex,
  evidenceCipherContext,
  normaliseDocumentNumber,
} from '../../features/evidence/evidence-keys.ts';
import type {
  StoredBusinessDetails,
  StoredIdDocumentDetails,
  StoredMrz,
} from '../../features/evidence/stored-details.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { upsertVerifyDetails } from '../../store/verify-details.ts';
import { documentStepComplete } from '../../features/verify/document-step-state.ts';
import { stepOf } from '../../features/verify/step-progress.ts';
import { verifyCaller } from '../verify-context.ts';
import { verifyError } from '../../features/verify/verify-errors.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { recordStepOutcome, withWritableSession } from '../../features/verify/writable-session.ts';
import { indexTypedNames } from '../../features/review-queue/name-tokens.ts';

const PERSON_NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;

const PersonName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(PERSON_NAME, 'letters, spaces, hyphens, apostrophes and dots only')
  // The generator would print the regex with its `/u` flag pasted on, which no JSON Schema validator
  // reads as a flag; the bare source is a valid JSON Schema pattern, whose regexes use Unicode semantics.
  .openapi({ pattern: PERSON_NAME.source });

const CalendarDateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => parseCalendarDate(value) !== null, 'is not a real calendar date');

const DocumentNumber = z
  .string()
  .trim()
  .max(30)
  .regex(/^[A-Za-z0-9 <-]+$/, 'letters and digits only (spaces and dashes are ignored)')
  .refine(
    (value) => /^[A-Z0-9]{5,20}$/.test(normaliseDocumentNumber(value)),
    'must hold 5 to 20 letters or digits',
  );

const IdDocumentDetailsBody = z.strictObject({
  step: z.literal('id_document'),
  first_name: PersonName.openapi({ example: 'Anna Maria' }),
  last_name: PersonName.openapi({ example: 'Eriksson' }),
  date_of_birth: CalendarDateText.openapi({ example: '1974-08-12' }),
  nationality: z.string().refine(isAlpha3Country, 'must be an ISO 3166-1 alpha-3 code such as DEU'),
  document_number: DocumentNumber.openapi({ example: 'L898902C3' }),
  expiry_date: CalendarDateText.openapi({ example: '2031-04-15' }),
  mrz: z
    .string()
    .max(300)
    .optional()
    .openapi({ description: 'The machine-readable zone, lines joined by `\\n`.' }),
});

const BusinessDetailsBody = z.strictObject({
  step: z.literal('business_details'),
  legal_name: z.string().trim().min(1).max(200),
  registration_number: z.string().trim().min(1).max(50),
  jurisdiction: z.string().refine(isAlpha3Country, 'must be an ISO 3166-1 alpha-3 code such as DEU'),
});

const DetailsBody = z
  .discriminatedUnion('step', [IdDocumentDetailsBody, BusinessDetailsBody])
  .openapi('VerifyDetailsRequest');

const DetailsSchema = z
  .object({
    object: z.literal('verify_details'),
    step: z.enum(['id_document', 'business_details']),
    step_status: z.enum(['pending', 'completed']),
    mrz: z
      .object({ check_digits_valid: z.boolean(), matches_details: z.boolean() })
      .nullable()
      .openapi({ description: 'How the supplied MRZ compares; null without one.' }),
    reading: z
      .object({ source: z.enum(['mrz', 'barcode']), matches_details: z.boolean() })
      .optional()
      .openapi({
        description:
          'How the details compare with what the server read off the uploaded document; absent when nothing was read.',
      }),
    user_message: z.string().optional(),
  })
  .openapi('VerifyDetails');

export const verifyDetailsRoute = createRoute({
  operationId: 'confirmVerifyDetails',
  method: 'put',
  path: '/v1/verify/details',
  tags: ['End-user'],
  summary: 'Confirm the document or business details',
  description:
    'Replaces the details of the step (stored encrypted). An `mrz` must be a TD1, TD2 or TD3 zone whose check digits verify; when it disagrees with the typed details the answer says so (`matches_details: false`) so the end-user can correct a typo, and the automated review compares them again. Typed details are compared the same way with what was read off the uploaded document (`reading`). When the session view says `prefill.id_document.details_required: false`, this call is optional for `id_document`: the details are then taken from the document.',
  security: VERIFY_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: DetailsBody } } } },
  responses: {
    200: {
      description: 'The details were saved',
      content: { 'application/json': { schema: DetailsSchema } },
    },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'steps_incomplete',
      'invalid_state_transition',
    ),
  },
});

type IdDocumentDetails = z.infer<typeof IdDocumentDetailsBody>;

function todayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Checks the MRZ; a zone that is not one, or whose check digits fail, is a misread to redo. */
function readMrz(text: string, now: Date) {
  try {
    const parsed = parseMrz(text, { now });
    if (!parsed.valid) {
      throw verifyError(
        'invalid_parameter',
        'The machine-readable zone does not check out. Please scan it again or check the characters.',
        { param: 'mrz', extensions: { invalid_fields: parsed.invalidFields } },
      );
    }
    return parsed;
  } catch (error) {
    if (!(error instanceof MrzFormatError)) throw error;
    throw verifyError(
      'invalid_parameter',
      'This is not a machine-readable zone. Enter its two or three lines as printed.',
      { param: 'mrz' },
    );
  }
}

export function registerVerifyDetails(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...verifyDetailsRoute, middleware: verifyKit(app, kit).json }, async (c) => {
    const body = c.req.valid('json');
    const caller = verifyCaller(c);
    const now = deps.clock.now();
    if (body.step === 'id_document') {
      if (body.date_of_birth > todayOf(now) || body.date_of_birth < '1900-01-01') {
        throw verifyError('invalid_parameter', 'Please check your date of birth.', {
          param: 'date_of_birth',
        });
      }
      if (body.expiry_date < '1950-01-01' || body.expiry_date > '2100-12-31') {
        throw verifyError('invalid_parameter', 'Please check the expiry date.', { param: 'expiry_date' });
      }
    }
    const mrz = body.step === 'id_document' && body.mrz !== undefined ? readMrz(body.mrz, now) : null;
    const matches =
      mrz === null ? null : contradictedFields(body as IdDocumentDetails, toReviewMrz(mrz)).length === 0;
    const read =
      body.step === 'id_document' ? await readIdDocumentDetails(deps.db, deps, caller.session) : null;
    const matchesRead =
      read === null
        ? null
        : contradictedFields(body as IdDocumentDetails, { ...read.details, check_digits_valid: true })
            .length === 0;

    const session = await withWritableSession(
      deps,
      caller.session,
      { needs: ['consent'] },
      async (tx, locked) => {
        if (!stepOf(locked.steps, body.step)) {
          throw verifyError('invalid_parameter', 'This verification does not ask for these details.', {
            param: 'step',
          });
        }
        const stored: StoredIdDocumentDetails | StoredBusinessDetails =
          body.step === 'id_document'
            ? {
                first_name: body.first_name,
                last_name: body.last_name,
                date_of_birth: body.date_of_birth,
                nationality: body.nationality,
                document_number: body.document_number,
                expiry_date: body.expiry_date,
              }
            : {
                legal_name: body.legal_name,
                registration_number: body.registration_number,
                jurisdiction: body.jurisdiction,
              };
        const storedMrz: StoredMrz | null =
          mrz === null || body.step !== 'id_document'
            ? null
            : { text: body.mrz as string, parsed: toReviewMrz(mrz) };
        await upsertVerifyDetails(
          tx,
          {
            session_id: locked.id,
            step: body.step,
            tenant_id: locked.tenant_id,
            environment: locked.environment,
            details_enc: await deps.cipher.encryptJson(
              stored,
              evidenceCipherContext.details(locked.id, body.step),
            ),
            mrz_enc:
              storedMrz === null
                ? null
                : await deps.cipher.encryptJson(storedMrz, evidenceCipherContext.mrz(locked.id)),
            document_number_index:
              body.step === 'id_document'
                ? await documentNumberIndex(deps.cipher, body.document_number)
                : null,
          },
          now,
        );
        if (body.step === 'id_document') await indexTypedNames(tx, deps, locked.id, body);
        const complete =
          body.step === 'business_details' || (await documentStepComplete(tx, locked, 'id_document'));
        return recordStepOutcome(tx, deps, locked, body.step, complete ? 'completed' : 'pending');
      },
    );
    return c.json(
      {
        object: 'verify_details' as const,
        step: body.step,
        step_status: stepOf(session.steps, body.step)?.status ?? 'pending',
        mrz: matches === null ? null : { check_digits_valid: true, matches_details: matches },
        ...(read === null ? {} : { reading: { source: read.source, matches_details: matchesRead === true } }),
        ...(matches === false || matchesRead === false
          ? { user_message: 'Some details differ from your document. Please check them before you continue.' }
          : {}),
      },
      200,
    );
  });
}
