import { z } from '@hono/zod-openapi';
import { ERROR_STATUS, type ErrorCode } from '../errors/error-codes.ts';

/** Every stable error code (errors/error-codes.ts), so generated clients get them as a union. */
export const ErrorCodeSchema = z
  .enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])
  .openapi('ErrorCode', {
    description:
      'A stable snake_case error code: branch on it. New codes may be added; treat an unknown one by its status.',
  });

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: 'https://api.example.com/docs/problems/resource_missing' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    code: ErrorCodeSchema,
    param: z.string().optional(),
    errors: z.array(z.object({ param: z.string(), code: z.string(), detail: z.string() })).optional(),
    request_id: z.string(),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details. Branch on `code`.' });

/** Error responses for an operation's documentation, grouped by status, from the codes it can return. */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'rate_limited', 'internal_error'] as ErrorCode[]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      status,
      {
        description: `Problem: ${[...new Set(statusCodes)].map((code) => `\`${code}\``).join(', ')}`,
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ]),
  );
}

export const AUTH_ERRORS: ErrorCode[] = [
  'ambiguous_credentials',
  'authentication_required',
  'invalid_api_key',
  'invalid_token',
  'token_expired',
  'insufficient_capability',
  'tenant_suspended',
  'user_disabled',
  'browser_request_forbidden',
];

/** Both credential kinds, as documented security requirements. */
export const TENANT_SECURITY: Record<string, string[]>[] = [{ ApiKey: [] }, { ConsoleBearer: [] }];

export const IdempotencyKeyHeader = z.object({
  'idempotency-key': z.string().max(255).optional().openapi({
    description: 'Makes a retry safe: the first answer is replayed for 24 h.',
    example: 'order-8812-kyc',
  }),
});
