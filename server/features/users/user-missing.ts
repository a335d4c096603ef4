import { ApiError } from '../../errors/api-error.ts';

/** The 404 of every user operation: another tenant's user is as missing as a made-up id. */
export function userMissing(id: string): never {
  throw new ApiError('resource_missing', `No user \`${id}\` in this tenant.`, { param: 'id' });
}
