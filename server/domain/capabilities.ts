/** Capability names (API.md §3). A route names the one it needs; principals carry a set. */
export const CAPABILITIES = [
  'sessions:create',
  'sessions:cancel',
  'sessions:read',
  'sessions:review',
  'sessions:assign',
  'identities:read',
  'identities:read_pii',
  'reverifications:create',
  'webhooks:read',
  'webhooks:write',
  'api_keys:write',
  'users:write',
  'tenant:write',
  'audit:read',
  'sandbox:simulate',
  'watchlist:read',
  'watchlist:write',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

export const ROLES = ['tenant_admin', 'developer', 'reviewer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  tenant_admin: CAPABILITIES,
  developer: [
    'sessions:create',
    'sessions:cancel',
    'sessions:read',
    'identities:read',
    'reverifications:create',
    'webhooks:read',
    'webhooks:write',
    'api_keys:write',
    'sandbox:simulate',
  ],
  reviewer: [
    'sessions:read',
    'sessions:review',
    'identities:read',
    'identities:read_pii',
    'reverifications:create',
    'watchlist:read',
  ],
  viewer: ['sessions:read', 'identities:read', 'webhooks:read'],
};

/**
 * Server-to-server keys can do everything but administer users, keys and the tenant. `sessions:assign`
 * (give a session in review to a reviewer, release another's claim) stays: a tenant's own tooling may
 * route its queue.
 */
const API_KEY_CAPABILITIES: readonly Capability[] = CAPABILITIES.filter(
  (capability) => !['users:write', 'api_keys:write', 'tenant:write', 'audit:read'].includes(capability),
);

export function capabilitiesOfRole(role: Role): readonly Capability[] {
  return ROLE_CAPABILITIES[role];
}

export function capabilitiesOfApiKey(): readonly Capability[] {
  return API_KEY_CAPABILITIES;
}

/** The console page each role opens first. */
export function defaultPathOfRole(role: Role): string {
  switch (role) {
    case 'tenant_admin':
      return '/console/dashboard';
    case 'reviewer':
      return '/console/reviews';
    case 'developer':
    case 'viewer':
      return '/console/sessions';
  }
}
