import { type Capability, capabilitiesOfRole, type Role } from '../../domain/capabilities.ts';
import { ApiError } from '../../errors/api-error.ts';

/**
 * Nobody hands out more than they hold: a role may be granted (by invitation or change) only when each of
 * its capabilities is one of the granting user's. Today only a `tenant_admin` manages users and holds
 * everything, so this binds only if a narrower user manager ever exists; it also makes "a user cannot raise
 * their own role" hold for any role.
 *
 * @example
 * assertMayGrant('tenant_admin', principal.capabilities, 'role'); // throws 403 unless the caller holds all
 */
export function assertMayGrant(
  role: Role,
  granterCapabilities: ReadonlySet<Capability>,
  param: string,
): void {
  const beyond = capabilitiesOfRole(role).filter((capability) => !granterCapabilities.has(capability));
  if (beyond.length > 0) {
    throw new ApiError(
      'insufficient_capability',
      `Granting \`${role}\` needs capabilities you do not hold: ${beyond.join(', ')}.`,
      { param },
    );
  }
}

/** Whether moving from `from` to `to` adds any capability: raising one's own role is refused. */
export function raisesRole(from: Role, to: Role): boolean {
  const held = new Set(capabilitiesOfRole(from));
  return capabilitiesOfRole(to).some((capability) => !held.has(capability));
}
