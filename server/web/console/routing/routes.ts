import type { Capability } from '../api/console-api.ts';
import type { MessageKey } from '../i18n/en.ts';
import { BASE } from './console-path.ts';

export { BASE, consolePath } from './console-path.ts';

export type ScreenName =
  | 'login'
  | 'accept_invitation'
  | 'dashboard'
  | 'sessions'
  | 'session'
  | 'reviews'
  | 'identities'
  | 'identity'
  | 'webhooks'
  | 'webhook'
  | 'api_keys'
  | 'team'
  | 'settings'
  | 'audit'
  | 'security'
  | 'not_found';

export interface RouteDef {
  name: ScreenName;
  /** Segments after `/console/`; `:name` captures one segment. */
  pattern: string;
  /** The element that renders it, defined by `load()`. */
  tag: string;
  title: MessageKey;
  /** Shown to users holding this capability; null: anyone signed in (or, for public routes, anyone). */
  capability: Capability | null;
  /** Reachable without a token (login, accepting an invitation). */
  public?: boolean;
  /** Listed in the navigation, in this order. */
  nav?: boolean;
  /** Loads the screen's chunk: each screen is its own lazy chunk, so the first page loads only its code. */
  load: () => Promise<unknown>;
}

/**
 * The route table: paths, the capability each screen needs (API.md §3), and where its code lives. The
 * navigation shows exactly the `nav` routes the user's capabilities allow.
 */
export const ROUTES: readonly RouteDef[] = [
  {
    name: 'login',
    pattern: 'login',
    tag: 'idv-login-screen',
    title: 'loginTitle',
    capability: null,
    public: true,
    load: () => import('../screens/login-screen.ts'),
  },
  {
    name: 'accept_invitation',
    pattern: 'accept-invitation',
    tag: 'idv-accept-invitation-screen',
    title: 'acceptTitle',
    capability: null,
    public: true,
    load: () => import('../screens/accept-invitation-screen.ts'),
  },
  {
    name: 'dashboard',
    pattern: 'dashboard',
    tag: 'idv-dashboard-screen',
    title: 'navDashboard',
    capability: 'sessions:read',
    nav: true,
    load: () => import('../screens/dashboard-screen.ts'),
  },
  {
    name: 'sessions',
    pattern: 'sessions',
    tag: 'idv-sessions-screen',
    title: 'navSessions',
    capability: 'sessions:read',
    nav: true,
    load: () => import('../screens/sessions-screen.ts'),
  },
  {
    name: 'session',
    pattern: 'sessions/:id',
    tag: 'idv-session-detail-screen',
    title: 'sessionTitle',
    capability: 'sessions:read',
    load: () => import('../screens/session-detail-screen.ts'),
  },
  {
    name: 'reviews',
    pattern: 'reviews',
    tag: 'idv-review-screen',
    title: 'navReviews',
    capability: 'sessions:review',
    nav: true,
    load: () => import('../screens/review-screen.ts'),
  },
  {
    name: 'identities',
    pattern: 'identities',
    tag: 'idv-identities-screen',
    title: 'navIdentities',
    capability: 'identities:read',
    nav: true,
    load: () => import('../screens/identities-screen.ts'),
  },
  {
    name: 'identity',
    pattern: 'identities/:id',
    tag: 'idv-identity-detail-screen',
    title: 'identityTitle',
    capability: 'identities:read',
    load: () => import('../screens/identity-detail-screen.ts'),
  },
  {
    name: 'webhooks',
    pattern: 'webhooks',
    tag: 'idv-webhooks-screen',
    title: 'navWebhooks',
    capability: 'webhooks:read',
    nav: true,
    load: () => import('../screens/webhooks-screen.ts'),
  },
  {
    name: 'webhook',
    pattern: 'webhooks/:id',
    tag: 'idv-webhook-detail-screen',
    title: 'webhookTitle',
    capability: 'webhooks:read',
    load: () => import('../screens/webhook-detail-screen.ts'),
  },
  {
    name: 'api_keys',
    pattern: 'api-keys',
    tag: 'idv-api-keys-screen',
    title: 'navApiKeys',
    capability: 'api_keys:write',
    nav: true,
    load: () => import('../screens/api-keys-screen.ts'),
  },
  {
    name: 'team',
    pattern: 'team',
    tag: 'idv-team-screen',
    title: 'navTeam',
    capability: 'users:write',
    nav: true,
    load: () => import('../screens/team-screen.ts'),
  },
  {
    name: 'settings',
    pattern: 'settings',
    tag: 'idv-settings-screen',
    title: 'navSettings',
    capability: 'tenant:write',
    nav: true,
    load: () => import('../screens/settings-screen.ts'),
  },
  {
    name: 'audit',
    pattern: 'audit',
    tag: 'idv-audit-screen',
    title: 'navAudit',
    capability: 'audit:read',
    nav: true,
    load: () => import('../screens/audit-screen.ts'),
  },
  {
    // Linked from the header, not the navigation. A token that may only enrol a second factor (the
    // tenant requires one) opens this page and no other (console-element.ts).
    name: 'security',
    pattern: 'security',
    tag: 'idv-security-screen',
    title: 'securityTitle',
    capability: null,
    load: () => import('../screens/security-screen.ts'),
  },
];

export const NOT_FOUND: RouteDef = {
  name: 'not_found',
  pattern: '',
  tag: 'idv-not-found-screen',
  title: 'notFoundTitle',
  capability: null,
  load: () => import('../screens/not-found-screen.ts'),
};

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
  query: URLSearchParams;
  /** What follows `#`, never sent to the server (an invitation token travels here). */
  fragment: string;
  /** The path and query, as the address bar shows them (without the fragment). */
  href: string;
}

/** Splits `/console/x?y=1#z` into its path, query (with `?`) and fragment (without `#`). */
export function splitHref(href: string): { pathname: string; search: string; fragment: string } {
  const hashAt = href.indexOf('#');
  const fragment = hashAt === -1 ? '' : href.slice(hashAt + 1);
  const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  return {
    pathname: queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt),
    search: queryAt === -1 ? '' : beforeHash.slice(queryAt),
    fragment,
  };
}

/**
 * Finds the route of a console URL; `/console` and `/console/` have none (the shell sends them to the
 * user's `default_path`).
 *
 * @example
 *   matchRoute('/console/sessions/sess_1?x=1')?.params // → { id: 'sess_1' }
 */
export function matchRoute(pathname: string, search = '', fragment = ''): RouteMatch | null {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return null;
  const segments = pathname
    .slice(BASE.length + 1)
    .split('/')
    .filter((segment) => segment !== '');
  if (segments.length === 0) return null;
  const query = new URLSearchParams(search);
  const href = `${pathname}${search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : ''}`;
  for (const route of ROUTES) {
    const parts = route.pattern.split('/');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, index) => {
      const segment = segments[index] ?? '';
      if (part.startsWith(':')) {
        params[part.slice(1)] = decodeURIComponent(segment);
        return true;
      }
      return part === segment;
    });
    if (matches) return { route, params, query, fragment, href };
  }
  return { route: NOT_FOUND, params: {}, query, fragment, href };
}

/**
 * A path the login page may return to: a console page on this origin, never an absolute or
 * protocol-relative URL (an open redirect) and never the login page itself.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value?.startsWith(`${BASE}/`) || value.startsWith('//') || value.includes('\\')) return null;
  const { pathname, search } = splitHref(value);
  const match = matchRoute(pathname, search);
  return match && !match.route.public ? match.href : null;
}
