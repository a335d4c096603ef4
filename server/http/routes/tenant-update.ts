import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  DEFAULT_ATTEMPTS_PER_STEP,
  MAX_ATTEMPTS_PER_STEP,
  MIN_ATTEMPTS_PER_STEP,
} from '../../domain/session-steps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { forgetAttemptsPerStep } from '../attempts-per-step-cache.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { DOCUMENT_AUTHENTICITY_POLICIES, updateTenant } from '../../store/tenants.ts';
import { tenantMissing, toTenantObject } from '../../features/tenants/tenant-object.ts';
import { BrandingSchema, TenantSchema } from './tenant-schemas.ts';

/** An origin exactly as a browser sends it: scheme, host and optional port; no path, no trailing slash. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

const UpdateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    allowed_origins: z
      .array(z.string().max(255).refine(isOrigin, 'must be an origin such as https://app.example.com'))
      .max(50)
      .optional()
      .openapi({ description: 'Origins that may embed the widget and frame the hosted page.' }),
    branding: BrandingSchema.optional(),
    minimum_age: z.number().int().min(13).max(99).optional().openapi({ description: 'Default 18.' }),
    document_authenticity: z.enum(DOCUMENT_AUTHENTICITY_POLICIES).optional().openapi({
      description:
        'Default `offline_checks`: the offline checks may pass document authenticity on their own. `manual_review`: a person always judges it.',
    }),
    proof_of_address_max_age_days: z
      .number()
      .int()
      .min(1)
      .max(366)
      .optional()
      .openapi({ description: 'How many days old a proof of address may be; default 92 (three months).' }),
    attempts_per_step: z
      .number()
      .int()
      .min(MIN_ATTEMPTS_PER_STEP)
      .max(MAX_ATTEMPTS_PER_STEP)
      .optional()
      .openapi({
        description: `Attempts an end-user gets at each step of sessions created from now on (${MIN_ATTEMPTS_PER_STEP}–${MAX_ATTEMPTS_PER_STEP}); default ${DEFAULT_ATTEMPTS_PER_STEP}. Refusals for capture quality cost none.`,
      }),
    require_second_factor: z.boolean().optional().openapi({
      description:
        'Every member must log in with a second factor (an authenticator app or a passkey); a member without one can only enrol one. Default `false`.',
    }),
    review_target_minutes: z.number().int().min(5).max(10080).optional().openapi({
      description:
        'Minutes a session may wait in the review queue before it shows as over target (5 minutes to 7 days); default 240.',
    }),
  })
  .openapi('UpdateTenantRequest');

export const updateTenantRoute = createRoute({
  operationId: 'updateTenant',
  method: 'patch',
  path: '/v1/tenant',
  tags: ['Tenant'],
  summary: 'Update tenant settings',
  security: TENANT_SECURITY,
  request: { body: { required: true, content: { 'application/json': { schema: UpdateTenantBody } } } },
  responses: {
    200: { description: 'The updated tenant', content: { 'application/json': { schema: TenantSchema } } },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'unknown_parameter',
      'unsupported_media_type',
    ),
  },
});

export function registerUpdateTenant(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...updateTenantRoute, middleware: kit.tenant({ capability: 'tenant:write', body: 'json' }) },
    async (c) => {
      const changes = c.req.valid('json');
      const production = deps.config.mode === 'production';
      const insecure = changes.allowed_origins?.find((origin) => production && origin.startsWith('http://'));
      if (insecure) {
        throw new ApiError('invalid_parameter', `\`${insecure}\` must use https in production.`, {
          param: 'allowed_origins',
        });
      }
      const tenantId = c.get('principal').tenantId;
      const tenant = await updateTenant(deps.db, tenantId, changes, deps.clock.now());
      forgetAttemptsPerStep(deps, tenantId);
      if (!tenant) throw tenantMissing();
      return c.json(toTenantObject(tenant), 200);
    },
  );
}
