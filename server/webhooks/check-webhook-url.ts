import type { AppDeps } from '../app-deps.ts';
import type { Environment } from '../domain/api-key-format.ts';
import { ApiError } from '../errors/api-error.ts';
import { ipVersion } from './ip-address.ts';
import { addressesProblem, networkPolicyFor, urlProblem } from './url-policy.ts';

function refuse(problem: string): never {
  throw new ApiError('webhook_url_not_allowed', `This URL cannot receive webhooks: ${problem}.`, {
    param: 'url',
  });
}

/**
 * The create/update-time half of the SSRF guard: 422 `webhook_url_not_allowed` unless the URL fits the
 * environment's network policy, including every address its host resolves to now (when the host can
 * resolve names: the Node sender). Delivery checks again against the address actually connected to.
 */
export async function assertWebhookUrlAllowed(
  deps: Pick<AppDeps, 'config' | 'webhookSender'>,
  environment: Environment,
  url: string,
): Promise<void> {
  const policy = networkPolicyFor(deps.config.mode, environment);
  const problem = urlProblem(url, policy);
  if (problem) refuse(problem);
  if (policy !== 'public_only') return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const resolveHost = deps.webhookSender?.resolveHost;
  if (ipVersion(host) || !resolveHost) return;
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch {
    refuse(`the host ${host} does not resolve`);
  }
  const resolved = addressesProblem(host, addresses);
  if (resolved) refuse(resolved);
}
