import { createHmac } from 'node:crypto';
import { markDone, stillHeld, type DeliveryPayload, type JobHandler, type Service, type WebhookRecord } from '@reelbase/core';
import { refusedUrl } from './public-address';

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
  return {
    async run(job, { worker, signal }) {
      const { webhook, event } = job.payload as DeliveryPayload;
      const hook = await store.get<WebhookRecord>('webhooks', webhook);
      if (hook) {
        const url = new URL(hook.url);
        const refused = await refusedUrl(url, service.config.webhookAllowPrivate);
        if (refused) throw new Error(refused);
        const body = JSON.stringify(event);
        const res = await fetch(url, {
          method: 'POST',
          redirect: 'error',
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
        await res.body?.cancel();
        if (res.status < 200 || res.status > 299) throw new Error(`the receiver answered ${res.status}`);
      }
      await store.transaction(async (tx) => {
        if (await stillHeld(tx, job, worker)) await markDone(tx, job, service.now());
      });
    },
    // A delivery that never got through stays in the queue as `failed`, with its last error.
    async failed() {},
  };
}
