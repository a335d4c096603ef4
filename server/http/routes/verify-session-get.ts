import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { readSession, transitionSession } from '../../features/sessions/transition-session.ts';
import { findSessionForUpdate } from '../../store/sessions.ts';
import { prefillOf, toPublicSession } from '../../features/verify/public-session.ts';
import { verifyCaller } from '../verify-context.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { PublicSessionSchema } from './schemas/verify-schemas.ts';

const PrefillSchema = z
  .object({
    id_document: z
      .object({
        source: z.enum(['mrz', 'barcode']),
        details: z.object({
          first_name: z.string(),
          last_name: z.string(),
          date_of_birth: z.string(),
          document_number: z.string(),
          expiry_date: z.string(),
          nationality: z.string().optional(),
        }),
        details_required: z.boolean().openapi({
          description:
            'False when the document gave every detail whole: `PUT /v1/verify/details` is then optional.',
        }),
      })
      .optional(),
  })
  .openapi('VerifyPrefill', {
    description:
      'The end-user’s own details as read off the uploaded identity document (machine-readable zone with valid check digits first, else the barcode), for prefilling the details form while the session collects evidence; `{}` when nothing was read.',
  });

const VerifySessionViewSchema = PublicSessionSchema.extend({ prefill: PrefillSchema }).openapi(
  'VerifySessionView',
  { description: 'The session as the end-user sees it, with what can be prefilled from their document.' },
);

export const getVerifySessionRoute = createRoute({
  operationId: 'getVerifySession',
  method: 'get',
  path: '/v1/verify/session',
  tags: ['End-user'],
  summary: 'Read the session as the end-user',
  description:
    'For the hosted page and the widget. The first call moves a `created` session to `collecting`. A session that is over stays readable so the page can redirect. While the session collects evidence, `prefill` holds the details read off the uploaded identity document, for the end-user’s own form.',
  security: VERIFY_SECURITY,
  responses: {
    200: {
      description: 'The public view',
      content: { 'application/json': { schema: VerifySessionViewSchema } },
    },
    ...errorResponses(...VERIFY_AUTH_ERRORS),
  },
});

export function registerGetVerifySession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...getVerifySessionRoute, middleware: verifyKit(app, kit).auth }, async (c) => {
    const { session, tenant } = verifyCaller(c);
    let current = session;
    if (session.status === 'created') {
      const scope = { tenantId: session.tenant_id, environment: session.environment };
      current = await deps.db.transaction(async (tx) => {
        const locked = await readSession(
          tx,
          deps,
          scope,
          session.id,
          await findSessionForUpdate(tx, scope, session.id),
        );
        return locked.status === 'created'
          ? transitionSession(tx, deps, locked, 'collecting', 'end_user_started')
          : locked;
      });
    }
    return c.json(
      { ...toPublicSession(current, tenant), prefill: await prefillOf(deps.db, deps, current) },
      200,
    );
  });
}
