import { createHmac } from 'node:crypto';
import { markDone, stillHeld, type DeliveryPayload, type JobHandler, type Service, type WebhookRecord } from '@reelbase/core';
import { Outbound } from './outbound';

/** How long a receiver has to answer a delivery. */
const timeoutMs = 10_000;

/** `sha256=<hex>`: HMAC-SHA256 of the raw body with the webhook's secret. */
export const signatureOf = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Delivers one webhook event: a POST of its JSON, signed (`Reelbase-Signature`), answered 2xx
 * within the timeout, or the attempt fails and the queue retries it with back-off (at least once;
 * the receiver deduplicates by `Reelbase-Delivery`, the event id). A deleted webhook drops it.
 */
export function webhookHandler(service: Service): JobHandler {
  const { store } = service;
  const outbound = new Outbound({ allowPrivate: service.config.webhookAllowPrivate, lookup: service.config.outboundLookup });
  return {
    async run(job, { worker, signal }) {
      const { webhook, event } = job.payload as DeliveryPayload;
      const hook = await store.get<WebhookRecord>('webhooks', webhook);
      if (hook) {
        const body = JSON.stringify(event);
        const res = await outbound.request(new URL(hook.url), {
          method: 'POST',
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'reelbase-webhooks',
            'Reelbase-Event': event.type,
            'Reelbase-Delivery': event.id,
            'Reelbase-Signature': signatureOf(hook.secret, body),
          },
        });
        res.destroy();
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) throw new Error(`the receiver answered ${status}`);
      }
      await store.transaction(async (tx) => {
        if (await stillHeld(tx, job, worker)) await markDone(tx, job, service.now());
      });
    },
    // A delivery that never got through stays in the queue as `failed`, with its last error.
    async failed() {},
  };
}
