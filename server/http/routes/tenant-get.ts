import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { DOCUMENT_AUTHENTICITY_POLICIES, findTenant, type TenantRow } from '../../store/tenants.ts';

export const BrandingSchema = z
  .strictObject({
    primary_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour')
      .optional(),
    accent_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour')
      .optional(),
    logo_url: z
      .string()
      .max(2048)
      .refine((value) => value.startsWith('https://'), 'must be an https URL')
      .optional(),
  })
  .openapi('Branding');

export const TenantSchema = z
  .object({
    object: z.literal('tenant'),
    tenant_id: z.string(),
    name: z.string(),
    status: z.enum(['active', 'suspended']),
    allowed_origins: z.array(z.string()),
    branding: BrandingSchema,
    minimum_age: z.number().int(),
    document_authenticity: z.enum(DOCUMENT_AUTHENTICITY_POLICIES).openapi({
      description:
        '`offline_checks`: a document whose offline checks (machine-readable zone check digits, layout, portrait, barcode) all pass is accepted as authentic without forensics; `manual_review`: document authenticity always goes to a person.',
    }),
    proof_of_address_max_age_days: z
      .number()
      .int()
      .openapi({ description: 'How many days old a proof of address may be.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Tenant');

export function toTenantObject(row: TenantRow) {
  return {
    object: 'tenant' as const,
    tenant_id: row.id,
    name: row.name,
    status: row.status as 'active' | 'suspended',
    allowed_origins: row.allowed_origins,
    branding: row.branding,
    minimum_age: row.minimum_age,
    document_authenticity: row.document_authenticity,
    proof_of_address_max_age_days: row.proof_of_address_max_age_days,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function tenantMissing(): ApiError {
  return new ApiError('resource_missing', 'The tenant no longer exists.');
}

export const getTenantRoute = createRoute({
  operationId: 'getTenant',
  method: 'get',
  path: '/v1/tenant',
  tags: ['Tenant'],
  summary: 'The tenant of the credential',
  security: TENANT_SECURITY,
  responses: {
    200: { description: 'The tenant', content: { 'application/json': { schema: TenantSchema } } },
    ...errorResponses(...AUTH_ERRORS),
  },
});

export function registerGetTenant(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  app.openapi({ ...getTenantRoute, middleware: kit.tenant() }, async (c) => {
    const tenant = await findTenant(kit.deps.db, c.get('principal').tenantId);
    if (!tenant) throw tenantMissing();
    return c.json(toTenantObject(tenant), 200);
  });
}
