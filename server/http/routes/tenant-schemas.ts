import { z } from '@hono/zod-openapi';
import { DOCUMENT_AUTHENTICITY_POLICIES } from '../../store/tenants.ts';

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
    attempts_per_step: z.number().int().openapi({
      description:
        'Attempts an end-user gets at each step of a new session. Only judged tries count: a photo or selfie refused for capture quality costs none.',
    }),
    require_second_factor: z.boolean().openapi({
      description:
        'Every member must log in with a second factor; a member without one reaches only the enrolment operations.',
    }),
    review_target_minutes: z.number().int().openapi({
      description:
        'Minutes a session may wait in the review queue; the queue marks a longer wait as over target.',
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Tenant');
