import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store';
import { eq } from '../store/filters';
import { enqueue } from '../jobs/queue';
import type { VideoRecord } from '../records';
import { isoTime } from '../support/time';
import type { WebhookEvent, WebhookRecord } from '../records/webhook';

export const webhookKind = 'webhook';

/** What a delivery job carries: the webhook to POST to and the event, as its body will read. */
export type DeliveryPayload = { webhook: string; event: { id: string; type: WebhookEvent; created_time: string; data: Record<string, unknown> } };

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/**
 * Queues `type` about `video` for each of its owner's webhooks that asked for it, in the caller's
 * transaction (an event exists exactly when the change it tells of commits). Deliveries of one
 * video's events go in order (the worker runs `webhook` jobs of one subject one after another).
 */
export async function emitVideoEvent(store: Store, video: VideoRecord, type: WebhookEvent, now: Date, extra: Record<string, unknown> = {}): Promise<void> {
  const { items } = await store.find<WebhookRecord>('webhooks', { where: eq('user_id', video.user_id) });
  const created_time = isoTime(now);
  for (const hook of items) {
    if (!hook.events.includes(type)) continue;
    const event = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type,
      created_time,
      data: { video: { uri: `/videos/${video.id}`, name: video.name, status: type === 'video.deleted' ? 'deleted' : video.status, ...extra } },
    };
    await enqueue(store, { kind: webhookKind, subject: video.id, payload: { webhook: hook.id, event } satisfies DeliveryPayload, max_attempts: 8 }, now);
  }
}
