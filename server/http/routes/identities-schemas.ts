import { z } from '@hono/zod-openapi';
import { FLOWS, TIERS } from '../../domain/session-steps.ts';

export const IdentityIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'idn_5Rk2m8TqWb3YdV0sLx9cPa' }),
});

const MaskedString = z.string().nullable().openapi({
  description: 'Masked as the first character and `***` without `identities:read_pii`.',
});

export const IdentitySchema = z
  .object({
    object: z.literal('identity'),
    identity_id: z.string(),
    environment: z.enum(['sandbox', 'production']),
    status: z.enum(['verified', 'reverification_pending', 'reverification_failed', 'revoked']),
    flow: z.enum(FLOWS),
    tier: z.enum(TIERS),
    external_user_reference: z.string().nullable(),
    verified_at: z.string(),
    latest_session_id: z.string(),
    attributes: z.object({
      first_name: MaskedString.openapi({ example: 'Jane' }),
      last_name: MaskedString.openapi({ example: 'Doe' }),
      date_of_birth: MaskedString.openapi({ example: '1990-04-12' }),
      nationality: MaskedString.openapi({ example: 'DEU' }),
      address: MaskedString.optional(),
      document: z.object({
        type: MaskedString.openapi({ example: 'passport' }),
        issuing_country: MaskedString,
        number: MaskedString,
        expiry_date: MaskedString,
      }),
    }),
    business: z
      .object({ legal_name: MaskedString, registration_number: MaskedString, jurisdiction: MaskedString })
      .optional(),
    biometric_reference: z
      .boolean()
      .openapi({ description: 'A selfie is enrolled, so a `biometric` re-verification is possible.' }),
    personal_data_masked: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Identity');
