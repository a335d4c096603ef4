import { ApiError } from '../../errors/api-error.ts';

/** 404 for a webhook that does not exist here: another tenant's or environment's looks the same. */
export function webhookMissing(id: string): never {
  throw new ApiError('resource_missing', `No webhook \`${id}\` exists in this environment.`, { param: 'id' });
}
