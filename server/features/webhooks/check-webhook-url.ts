import type { AppDeps } from '../../app-deps.ts';
import type { Environment } from '../../domain/api-key-format.ts';
import { ApiError } from '../../errors/api-error.ts';
import { ipVersion } from './ip-address.ts';
import { addressesProblem, networkPolicyFor, urlProblem } from './url-policy.ts';

function refuse(problem: string): never {
  throw new ApiError('webhook_url_not_allowed', `This URL cannot receive webhooks: ${problem}.`, {
    param: 'url',
  });
}

/**
 * The create/update-time half of the SSRF guard: 422 `webhook_url_not_allowed` unless the URL fits the
 * environment's network policy (url-policy.ts), including every address its host resolves to now, for
 * the policies of a production-mode server and where the host can resolve names (the Node sender).
 * Delivery checks again against the addresses actually connected to.
 */
export async function assertWebhookUrlAllowed(
  deps: Pick<AppDeps, 'config' | 'webhookSender'>,
  environment: Environment,
  url: string,
): Promise<void> {
  const policy = networkPolicyFor(deps.config.mode, environment);
  const options = { allowLoopback: deps.webhookSender?.allowLoopback === true };
  const problem = urlProblem(url, policy, options);
  if (problem) refuse(problem);
  // A development server resolves nothing at create time: its developer's names may only exist later.
  if (policy === 'local') return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const resolveHost = deps.webhookSender?.resolveHost;
  if (ipVersion(host) || !resolveHost) return;
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch {
    refuse(`the host ${host} does not resolve`);
  }
  const resolved = addressesProblem(host, addresses, policy, options);
  if (resolved) refuse(resolved);
}
