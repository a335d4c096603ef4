import { z } from '@hono/zod-openapi';
import { isAlpha3Country } from '../../../domain/countries.ts';
import { FLOWS, STEP_NAMES, TIERS } from '../../../domain/session-steps.ts';
import { SESSION_STATUSES } from '../../../domain/session-status.ts';

export const SessionIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'sess_3kTMd9Q2bq7uYbRj0sWcLp' }),
});

export const CountryCode = z
  .string()
  .refine(isAlpha3Country, 'must be an ISO 3166-1 alpha-3 country code in upper case, such as DEU')
  .openapi({ example: 'DEU', description: 'ISO 3166-1 alpha-3, upper case' });

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const MetadataValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);

export const Metadata = z
  .record(z.string().min(1).max(40), MetadataValue)
  .refine((value) => Object.keys(value).length <= 50, 'holds at most 50 keys')
  .openapi({ example: { plan: 'gold' }, description: '≤ 50 keys of ≤ 40 chars; string values ≤ 500 chars.' });

export const SANDBOX_OUTCOMES = ['approved', 'rejected', 'review_required'] as const;

export const CreateSessionBody = z
  .strictObject({
    country: CountryCode,
    flow: z.enum(FLOWS),
    tier: z.enum(TIERS),
    external_user_reference: z.string().min(1).max(255).optional().openapi({ example: 'user_8812' }),
    redirect_url: z
      .string()
      .max(2048)
      .refine(isHttpUrl, 'must be an absolute http(s) URL')
      .optional()
      .openapi({ example: 'https://tenant.example/kyc/done' }),
    metadata: Metadata.optional(),
    expires_in: z
      .number()
      .int()
      .min(900)
      .max(604800)
      .optional()
      .openapi({ description: 'Seconds; default 86400.' }),
    sandbox: z
      .strictObject({
        outcome: z.enum(SANDBOX_OUTCOMES),
        reason_codes: z
          .array(z.string().regex(/^[a-z_]{1,64}$/))
          .max(10)
          .optional(),
        processing_delay_ms: z.number().int().min(0).max(60_000).optional(),
      })
      .optional()
      .openapi({ description: 'Sandbox keys only: force the automated outcome.' }),
  })
  .openapi('CreateSessionRequest');

export const StepProgressSchema = z.object({
  step: z.enum(STEP_NAMES),
  status: z.enum(['pending', 'completed']),
  attempts_remaining: z.number().int(),
});

export const SessionSchema = z
  .object({
    object: z.literal('session'),
    session_id: z.string(),
    verify_url: z
      .string()
      .optional()
      .openapi({ description: 'Present while the session is created or collecting.' }),
    status: z.enum(SESSION_STATUSES),
    required_steps: z.array(z.enum(STEP_NAMES)),
    expires_at: z.string(),
    environment: z.enum(['sandbox', 'production']),
    country: z.string(),
    flow: z.enum(FLOWS),
    tier: z.enum(TIERS),
    external_user_reference: z.string().nullable(),
    redirect_url: z.string().nullable(),
    metadata: z.record(z.string(), MetadataValue),
    steps: z.array(StepProgressSchema),
    identity_id: z.string().nullable(),
    decision: z.string().nullable(),
    last_error: z.object({ code: z.string(), reason: z.string() }).nullable(),
    reverification_request_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    submitted_at: z.string().nullable(),
    decided_at: z.string().nullable(),
  })
  .openapi('Session');

export function listOf<T extends z.ZodType>(item: T, name: string) {
  return z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() }).openapi(name);
}
