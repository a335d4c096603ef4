import type { AppDeps } from '../../app-deps.ts';
import type { ClaimedDelivery, DeliveryRow } from '../../store/webhook-deliveries.ts';
import { completeAttempt } from '../../store/webhook-deliveries.ts';
import { disableGoneWebhook } from '../../store/webhooks.ts';
import { nextRetryDelay, parseRetryAfter } from './retry-schedule.ts';
import { signedHeaders } from './signature.ts';
import { activeSigningSecrets } from './signing-secrets.ts';
import { networkPolicyFor } from './url-policy.ts';
import { type DeliveryErrorClass, fetchWebhookSender, type SendResult } from './webhook-sender.ts';

/** API.md §8: a receiver gets 15 s to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;

export type AttemptDeps = Pick<AppDeps, 'db' | 'clock' | 'cipher' | 'config' | 'webhookSender' | 'logger'>;

export interface AttemptOptions {
  /** Schedule the next automatic attempt on failure (false for the test endpoint). */
  retry: boolean;
  /** Disable the endpoint on a 410 (false for the test endpoint: a test never changes the endpoint). */
  disableOnGone: boolean;
  random: () => number;
}

export interface AttemptOutcome {
  delivery: DeliveryRow | null;
  result: SendResult;
  durationMs: number;
}

/** The JSON body of a delivery: the stored thin payload, with the envelope fields always present. */
export function deliveryBody(claimed: ClaimedDelivery): string {
  return JSON.stringify({
    ...claimed.event.payload,
    event: claimed.event.type,
    event_id: claimed.event.id,
    created_at: claimed.event.created_at.toISOString(),
    environment: claimed.webhook.environment,
  });
}

function classify(result: SendResult): {
  ok: boolean;
  status: number | null;
  errorClass: DeliveryErrorClass | null;
} {
  if (result.kind === 'error') return { ok: false, status: null, errorClass: result.errorClass };
  const { status } = result;
  if (status >= 200 && status < 300) return { ok: true, status, errorClass: null };
  if (status >= 300 && status < 400) return { ok: false, status, errorClass: 'redirect' };
  if (status === 410) return { ok: false, status, errorClass: 'endpoint_gone' };
  return { ok: false, status, errorClass: 'http_error' };
}

/**
 * Signs and sends one claimed delivery, then records the attempt and the next step in one transaction:
 * success, a retry per the schedule (honouring `retry-after` on 429/503), or the end. A 410 disables the
 * endpoint. Never throws for a receiver's misbehaviour; database errors propagate.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  claimed: ClaimedDelivery,
  options: AttemptOptions,
): Promise<AttemptOutcome> {
  const sender = deps.webhookSender ?? fetchWebhookSender();
  const body = deliveryBody(claimed);
  const startedAt = deps.clock.now();
  const secrets = await activeSigningSecrets(deps.cipher, claimed.webhook, startedAt);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'id-verify-webhooks/1',
    ...(await signedHeaders({
      secrets,
      id: claimed.event.id,
      timestampSeconds: Math.floor(startedAt.getTime() / 1000),
      body,
    })),
  };
  // Real elapsed time, not the (possibly fake) clock: the log shows how slow the receiver really was.
  const started = performance.now();
  const result = await sender.send({
    url: claimed.webhook.url,
    headers,
    body,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    policy: networkPolicyFor(deps.config.mode, claimed.webhook.environment),
  });
  const durationMs = Math.round(performance.now() - started);
  const verdict = classify(result);
  const now = deps.clock.now();
  let nextAttemptAt: Date | null = null;
  const gone = verdict.errorClass === 'endpoint_gone';
  if (!verdict.ok && options.retry && !gone) {
    const honoursRetryAfter = result.kind === 'response' && (result.status === 429 || result.status === 503);
    const delay = nextRetryDelay(claimed.attempt, claimed.webhook.environment, {
      random: options.random,
      retryAfterMs: honoursRetryAfter ? parseRetryAfter(result.retryAfter, now) : null,
    });
    if (delay !== null) nextAttemptAt = new Date(now.getTime() + delay);
  }
  const delivery = await deps.db.transaction(async (tx) => {
    if (gone && options.disableOnGone) await disableGoneWebhook(tx, claimed.webhook.id, now);
    return completeAttempt(tx, {
      deliveryId: claimed.delivery.id,
      attempt: claimed.attempt,
      outcome: verdict.ok ? 'succeeded' : 'failed',
      durationMs,
      responseStatus: verdict.status,
      errorClass: verdict.errorClass,
      nextAttemptAt,
      now,
    });
  });
  if (!verdict.ok) {
    // Ids and classes only: never the URL's query, the body or the secret.
    deps.logger?.info('webhook attempt failed', {
      delivery_id: claimed.delivery.id,
      webhook_id: claimed.webhook.id,
      attempt: claimed.attempt,
      response_status: verdict.status,
      error_class: verdict.errorClass,
      next_attempt_at: nextAttemptAt?.toISOString() ?? null,
    });
  }
  return { delivery, result, durationMs };
}
