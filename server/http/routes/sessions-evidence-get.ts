import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { evidenceServices } from '../../features/evidence/evidence-services.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findSession } from '../../store/sessions.ts';
import { findSessionUpload } from '../../store/uploads.ts';

const EvidenceParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'sess_3kTMd9Q2bq7uYbRj0sWcLp' }),
  upload_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'upload_id', in: 'path' }, example: 'upl_5Hc2Qx9Rb1mZyT0aKd3WpE' }),
});

export const getEvidenceRoute = createRoute({
  operationId: 'getSessionEvidence',
  method: 'get',
  path: '/v1/sessions/{id}/evidence/{upload_id}',
  tags: ['Sessions'],
  summary: 'Download one uploaded image',
  description:
    'The decrypted image with its sniffed content type. Needs `sessions:review`. Never cached; an upload of another session is 404. Each download is audited (`session.evidence_viewed`: who, which session, which upload).',
  security: TENANT_SECURITY,
  request: { params: EvidenceParams },
  responses: {
    200: {
      description: 'The image bytes',
      content: {
        'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) },
        'image/png': { schema: z.string().openapi({ format: 'binary' }) },
        'image/webp': { schema: z.string().openapi({ format: 'binary' }) },
      },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing', 'service_unavailable'),
  },
});

export function registerGetSessionEvidence(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getEvidenceRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id, upload_id: uploadId } = c.req.valid('param');
      const scope = c.get('principal');
      const missing = () =>
        new ApiError('resource_missing', `No upload \`${uploadId}\` in session \`${id}\`.`, {
          param: 'upload_id',
        });
      if (!(await findSession(deps.db, scope, id))) {
        throw new ApiError('resource_missing', `No session \`${id}\` exists in this environment.`, {
          param: 'id',
        });
      }
      const upload = await findSessionUpload(deps.db, scope, id, uploadId);
      if (!upload) throw missing();
      const bytes = await evidenceServices(deps).blobs.get(upload.blob_key);
      // Retention may have removed the bytes between the two reads.
      if (bytes === null) throw missing();
      // Who looked at whose face or document is itself a record the tenant owes its auditors.
      await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), {
        action: 'session.evidence_viewed',
        tenantId: scope.tenantId,
        environment: scope.environment,
        actor: actorOf(scope),
        target: { type: 'session', id },
        details: { upload_id: upload.id, kind: upload.kind, step: upload.step },
      });
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': upload.content_type,
          'content-length': String(bytes.length),
          'content-disposition': `inline; filename="${upload.id}"`,
          'cache-control': 'no-store',
        },
      }) as never;
    },
  );
}
