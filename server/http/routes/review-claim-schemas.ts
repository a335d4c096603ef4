import { z } from '@hono/zod-openapi';

export const ReviewClaimSchema = z
  .object({
    object: z.literal('review_claim'),
    session_id: z.string(),
    reviewer_id: z.string().openapi({ description: 'The user (`usr_…`) working on the session.' }),
    claimed_at: z.string(),
    expires_at: z.string().nullable().openapi({
      description:
        'When the claim lapses unless renewed (30 minutes after the last claim); null for an admin’s assignment, held until released, decided or reassigned.',
    }),
    assigned_by: z
      .string()
      .nullable()
      .openapi({ description: 'The admin who assigned the session; null for a reviewer’s own claim.' }),
  })
  .openapi('ReviewClaim');
