import type { WebhookRecord } from '../records/webhook';
import { resourceKey } from './common';

export const webhookUri = (hook: WebhookRecord): string => `/users/${hook.user_id}/webhooks/${hook.id}`;

/** A webhook, as its owner sees it: the secret is theirs, to check each delivery's signature. */
export const representWebhook = (hook: WebhookRecord): Record<string, unknown> => ({
  uri: webhookUri(hook),
  url: hook.url,
  events: hook.events,
  secret: hook.secret,
  signature_header: 'Reelbase-Signature',
  created_time: hook.created_time,
  resource_key: resourceKey('webhook', hook.id),
});
