import { z } from '@hono/zod-openapi';
import { SESSION_STATUSES } from '../../../domain/session-status.ts';
import { FLOWS, STEP_NAMES, TIERS } from '../../../domain/session-steps.ts';

export const StepProgressSchema = z.object({
  step: z.enum(STEP_NAMES),
  status: z.enum(['pending', 'completed']),
  attempts_remaining: z.number().int(),
});

export const PublicSessionSchema = z
  .object({
    object: z.literal('verify_session'),
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    flow: z.enum(FLOWS),
    tier: z.enum(TIERS),
    country: z.string(),
    required_steps: z.array(z.enum(STEP_NAMES)),
    steps: z.array(StepProgressSchema),
    expires_at: z.string(),
    sandbox: z.boolean(),
    tenant: z.object({
      name: z.string(),
      branding: z.object({
        primary_color: z.string().optional(),
        accent_color: z.string().optional(),
        logo_url: z.string().optional(),
      }),
    }),
    accepted_document_types: z.record(z.string(), z.array(z.string())),
    redirect_url: z.string().nullable().openapi({ description: 'Present once the session is over.' }),
  })
  .openapi('VerifySession', {
    description: 'The session as the end-user sees it: progress and presentation, never personal data.',
  });
