import { z } from '@hono/zod-openapi';
import { STEP_NAMES } from '../../domain/session-steps.ts';
import { REVERIFICATION_STATUSES } from '../../features/reverification/reverification-status.ts';
import { REVERIFICATION_MODES, REVERIFICATION_REASON_CODES } from '../../store/reverifications.ts';
import { isHttpUrl } from './schemas/session-schemas.ts';

export const IdentityIdPathParam = z.object({
  identity_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'identity_id', in: 'path' }, example: 'idn_5Rk2m8TqWb3YdV0sLx9cPa' }),
});

export const CreateReverificationBody = z
  .strictObject({
    reason: z.string().min(1).max(500).openapi({ example: 'Annual KYC refresh' }),
    reason_code: z.enum(REVERIFICATION_REASON_CODES).optional().openapi({ description: 'Default `other`.' }),
    mode: z.enum(REVERIFICATION_MODES).optional().openapi({
      description:
        '`full` (default): the identity’s tier steps again. `biometric`: consent + liveness against the enrolled selfie.',
    }),
    redirect_url: z
      .string()
      .max(2048)
      .refine(isHttpUrl, 'must be an absolute http(s) URL')
      .optional()
      .openapi({ example: 'https://tenant.example/kyc/done' }),
    expires_in: z
      .number()
      .int()
      .min(900)
      .max(604800)
      .optional()
      .openapi({ description: 'Seconds the linked session lives; default 86400.' }),
  })
  .openapi('CreateReverificationRequest');

export const ReverificationSchema = z
  .object({
    object: z.literal('reverification_request'),
    reverification_request_id: z.string(),
    identity_id: z.string(),
    reason: z.string(),
    reason_code: z.enum(REVERIFICATION_REASON_CODES),
    mode: z.enum(REVERIFICATION_MODES),
    status: z.enum(REVERIFICATION_STATUSES).openapi({ description: 'Mirrors the linked session.' }),
    session_id: z.string(),
    verify_url: z.string().nullable().openapi({ description: 'While the linked session is open.' }),
    required_steps: z.array(z.enum(STEP_NAMES)),
    expires_at: z.string(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .openapi('ReverificationRequest');
