import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, type FieldError } from '../errors/api-error.ts';
import type { AppEnv } from './app-env.ts';

type Target = 'json' | 'query' | 'param' | 'header' | 'form' | 'cookie';

function rawInput(c: Context<AppEnv>, target: Target): unknown {
  switch (target) {
    case 'json':
      return c.get('jsonBody');
    case 'query':
      return c.req.queries();
    case 'param':
      return c.req.param();
    default:
      return undefined;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function dotted(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Turns zod issues into the contract's field errors: unknown, missing or invalid, each with its `param`. */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[], input: unknown): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const param = dotted([...issue.path, key]);
        errors.push({
          param,
          code: 'unknown_parameter',
          detail: `\`${param}\` is not a parameter of this operation.`,
        });
      }
      continue;
    }
    const param = dotted(issue.path);
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    errors.push(
      missing
        ? { param, code: 'missing_parameter', detail: `\`${param}\` is required.` }
        : { param, code: 'invalid_parameter', detail: `\`${param}\`: ${issue.message}` },
    );
  }
  return errors;
}

/**
 * The one validation hook of the app: any zod failure becomes a 400 problem whose `code` and `param`
 * name the first offending field and whose `errors` list them all.
 */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError; target: Target },
  c: Context<AppEnv>,
): void {
  if (result.success) return;
  const errors = fieldErrorsOf(result.error.issues, rawInput(c, result.target));
  const first = errors[0] ?? {
    param: '',
    code: 'invalid_parameter' as const,
    detail: 'The request is invalid.',
  };
  throw new ApiError(first.code, errors.map((error) => error.detail).join('; '), {
    param: first.param,
    errors,
  });
}
