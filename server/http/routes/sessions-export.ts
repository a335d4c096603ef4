import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import {
  EXPORT_COLUMNS,
  MAX_EXPORT_ROWS,
  PERSONAL_EXPORT_COLUMNS,
  selectSessionsToExport,
  sessionsCsv,
} from '../../features/review-queue/export-sessions.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { SessionFiltersQuery, sessionFiltersOf } from './schemas/session-filters-query.ts';

const ExportSessionsQuery = SessionFiltersQuery.strict();

export const exportSessionsRoute = createRoute({
  operationId: 'exportSessions',
  method: 'get',
  path: '/v1/exports/sessions',
  tags: ['Sessions'],
  summary: 'Sessions and their decisions as CSV, for the list’s filters',
  description: `The sessions \`GET /v1/sessions\` selects with the same filters, in the same order, one CSV row each with its latest decision: ${EXPORT_COLUMNS.map((c) => `\`${c}\``).join(', ')}; with \`identities:read_pii\` also ${PERSONAL_EXPORT_COLUMNS.map((c) => `\`${c}\``).join(', ')}. Never an image. Cells a spreadsheet would run as a formula start with \`'\`. At most ${MAX_EXPORT_ROWS} sessions: more is 400 \`invalid_parameter\`. Every export is audited (\`session.exported\`). Needs \`sessions:read\`.`,
  security: TENANT_SECURITY,
  request: { query: ExportSessionsQuery },
  responses: {
    200: {
      description: 'The CSV (RFC 4180, UTF-8, CRLF line ends)',
      content: { 'text/csv': { schema: z.string() } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter'),
  },
});

export function registerExportSessions(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...exportSessionsRoute, middleware: kit.tenant({ capability: 'sessions:read' }) },
    async (c) => {
      const query = c.req.valid('query');
      const principal = c.get('principal');
      const sessions = await selectSessionsToExport(
        deps,
        principal,
        await sessionFiltersOf(deps.cipher, query),
        query.order,
      );
      const personal = principal.capabilities.has('identities:read_pii');
      await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), {
        action: 'session.exported',
        tenantId: principal.tenantId,
        environment: principal.environment,
        actor: actorOf(principal),
        target: null,
        details: {
          rows: sessions.length,
          personal_fields: personal,
          // Which filters were set, never their values (a reference or a name is personal).
          filters: Object.keys(c.req.queries()).sort(),
        },
      });
      const day = deps.clock.now().toISOString().slice(0, 10);
      return new Response(sessionsCsv(deps, principal, sessions, personal), {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="sessions-${principal.environment}-${day}.csv"`,
          'cache-control': 'no-store',
        },
      }) as never;
    },
  );
}
