import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { evidenceCollectorOf } from '../../features/review/evidence-collector.ts';
import { DOCUMENT_DATA_FIELDS, documentDataOf } from '../../features/review-queue/document-data.ts';
import { readSession } from '../../features/sessions/transition-session.ts';
import { findSession } from '../../store/sessions.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

const FieldValues = z.object(
  Object.fromEntries(DOCUMENT_DATA_FIELDS.map((field) => [field, z.string().nullable()])) as Record<
    (typeof DOCUMENT_DATA_FIELDS)[number],
    z.ZodNullable<z.ZodString>
  >,
);

const DocumentDataSchema = z
  .object({
    object: z.literal('document_data'),
    session_id: z.string(),
    document_type: z.string().nullable(),
    issuing_country: z.string().nullable(),
    fields: z.array(z.enum(DOCUMENT_DATA_FIELDS)),
    sources: z.array(
      z.object({
        source: z.enum(['typed', 'mrz', 'barcode']),
        verified: z.boolean().openapi({
          description:
            'Typed: always true. MRZ: its check digits verify (an MRZ that does not is shown but compared with nothing). Barcode: it decoded.',
        }),
        values: FieldValues,
      }),
    ),
    disagreements: z.array(z.enum(DOCUMENT_DATA_FIELDS)).openapi({
      description: 'Fields on which trustworthy sources disagree, as the `data_consistency` check found.',
    }),
  })
  .openapi('DocumentData');

/**
 * The answer for a session without an identity document: the same shape with nothing in it (no source,
 * no disagreement), so a reviewer's screen can ask for every session it shows and read "nothing to
 * compare" from the data rather than from an error. Holds no personal value: its read is not audited.
 */
function noDocumentData(sessionId: string): ReturnType<typeof documentDataOf> {
  return {
    object: 'document_data',
    session_id: sessionId,
    document_type: null,
    issuing_country: null,
    fields: [...DOCUMENT_DATA_FIELDS],
    sources: [],
    disagreements: [],
  };
}

export const getDocumentDataRoute = createRoute({
  operationId: 'getSessionDocumentData',
  method: 'get',
  path: '/v1/sessions/{id}/document-data',
  tags: ['Review queue'],
  summary: 'The document’s details by source, for a reviewer to compare',
  description:
    'What the person typed, what the MRZ and the barcode say, field by field, and where they disagree. Personal data: needs `sessions:review` and `identities:read_pii`, and every read of a document is audited (`session.personal_data_viewed`). A session without an identity document (none captured yet, or a flow without the step) answers 200 with no `sources`, no `disagreements` and a null `document_type` and `issuing_country`: nothing to compare, nothing personal shown, nothing audited. 404 only when the session does not exist.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: {
      description: 'The details by source',
      content: { 'application/json': { schema: DocumentDataSchema } },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetDocumentData(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getDocumentDataRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      if (!scope.capabilities.has('identities:read_pii')) {
        throw new ApiError(
          'insufficient_capability',
          'Reading document details needs `identities:read_pii`.',
        );
      }
      const session = await readSession(deps.db, deps, scope, id, await findSession(deps.db, scope, id));
      const document = (await evidenceCollectorOf(deps)(deps.db, deps, session)).id_document;
      // No document is an answer, not an error: the reviewer's screen asks for every session it shows.
      if (!document) return c.json(noDocumentData(id), 200);
      const data = documentDataOf(id, document);
      // Who read whose personal details is a record the tenant owes its auditors.
      await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), {
        action: 'session.personal_data_viewed',
        tenantId: scope.tenantId,
        environment: scope.environment,
        actor: actorOf(scope),
        target: { type: 'session', id },
        details: { sources: data.sources.map((source) => source.source) },
      });
      return c.json(data, 200);
    },
  );
}
