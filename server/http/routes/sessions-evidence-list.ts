import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { evidenceCipherContext } from '../../features/evidence/evidence-keys.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { readSession } from '../../features/sessions/transition-session.ts';
import { findSession } from '../../store/sessions.ts';
import { listSessionUploads, type UploadRow } from '../../store/uploads.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

export const EvidenceUploadSchema = z
  .object({
    object: z.literal('upload'),
    upload_id: z.string(),
    session_id: z.string(),
    kind: z.enum(['document', 'liveness_frame']),
    step: z.string(),
    document_type: z.string().nullable(),
    side: z.enum(['front', 'back']).nullable(),
    issuing_country: z.string().nullable(),
    liveness_challenge_id: z.string().nullable(),
    frame_index: z.number().int().nullable(),
    content_type: z.string(),
    byte_size: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    quality: z.object({
      ok: z.boolean(),
      issues: z.array(z.string()),
      sharpness: z.number(),
      glare_ratio: z.number(),
      brightness: z.number(),
    }),
    created_at: z.string(),
  })
  .openapi('EvidenceUpload');

export const listEvidenceRoute = createRoute({
  operationId: 'listSessionEvidence',
  method: 'get',
  path: '/v1/sessions/{id}/evidence',
  tags: ['Sessions'],
  summary: 'List a session’s uploaded images',
  description:
    'Document photos and liveness frames in upload order, with the quality measured at upload. Needs `sessions:review`. Fetch the image itself from `/v1/sessions/{id}/evidence/{upload_id}`. Each listing is audited (`session.evidence_listed`).',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: {
      description: 'The uploads',
      content: {
        'application/json': {
          schema: z.object({
            object: z.literal('list'),
            data: z.array(EvidenceUploadSchema),
            has_more: z.boolean(),
          }),
        },
      },
    },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

async function toEvidenceUpload(deps: RouteKit['deps'], row: UploadRow) {
  return {
    object: 'upload' as const,
    upload_id: row.id,
    session_id: row.session_id,
    kind: row.kind,
    step: row.step,
    document_type: row.document_type,
    side: row.side,
    issuing_country: row.issuing_country_enc
      ? await deps.cipher.decrypt(row.issuing_country_enc, evidenceCipherContext.issuingCountry(row.id))
      : null,
    liveness_challenge_id: row.liveness_challenge_id,
    frame_index: row.frame_index,
    content_type: row.content_type,
    byte_size: row.byte_size,
    width: row.width,
    height: row.height,
    quality: row.quality,
    created_at: row.created_at.toISOString(),
  };
}

export function registerListSessionEvidence(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listEvidenceRoute, middleware: kit.tenant({ capability: 'sessions:review' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      await readSession(deps.db, deps, scope, id, await findSession(deps.db, scope, id));
      const rows = await listSessionUploads(deps.db, scope, id);
      await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), {
        action: 'session.evidence_listed',
        tenantId: scope.tenantId,
        environment: scope.environment,
        actor: actorOf(scope),
        target: { type: 'session', id },
        details: { uploads: rows.length },
      });
      // At most 12 documents and 3 attempts × 3 frames per session: one page always holds them all.
      return c.json(
        {
          object: 'list' as const,
          data: await Promise.all(rows.map((row) => toEvidenceUpload(deps, row))),
          has_more: false,
        },
        200,
      );
    },
  );
}
