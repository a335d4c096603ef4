import type { WebhookSender } from '../../features/webhooks/webhook-sender.ts';

/** One signed delivery as the receiver would get it: the raw body and every header, signatures included. */
export interface DeliveredWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Answers a delivery with an HTTP status, as a receiver would (2xx accepts, anything else is retried). */
export type WebhookReceiver = (delivery: DeliveredWebhook) => number | Promise<number>;

/**
 * A {@link WebhookSender} for hosts without a network to the receiver (the browser mock): each signed
 * delivery is handed to `receive`, whose status decides success, retry or disabling exactly as an HTTP
 * answer would. A receiver that throws counts as a network error. Nothing is sent anywhere.
 *
 * @example
 * const sender = callbackWebhookSender(async ({ headers, body }) => (verify(headers, body) ? 200 : 400));
 */
export function callbackWebhookSender(receive: WebhookReceiver): WebhookSender {
  return {
    async send(request) {
      try {
        const status = await receive({
          url: request.url,
          headers: { ...request.headers },
          body: request.body,
        });
        return { kind: 'response', status, retryAfter: null };
      } catch {
        return { kind: 'error', errorClass: 'network_error' };
      }
    },
  };
}

/**
 * Posts every delivery on a `BroadcastChannel` (so any tab, or the console, can watch them) and answers
 * with what `receive` says, 200 when there is no receiver.
 *
 * @example
 * const sender = broadcastWebhookSender('id-verify-mock-webhooks');
 * new BroadcastChannel('id-verify-mock-webhooks').onmessage = ({ data }) => console.log(data.body);
 */
export function broadcastWebhookSender(channelName: string, receive?: WebhookReceiver): WebhookSender {
  const channel = new BroadcastChannel(channelName);
  return callbackWebhookSender(async (delivery) => {
    channel.postMessage(delivery);
    return receive ? receive(delivery) : 200;
  });
}
