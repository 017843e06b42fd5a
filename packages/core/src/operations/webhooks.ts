import { array, enums, object, optional, refine, size, string } from 'superstruct';
import { notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { created, noContent, ok, operation, type Context } from '../engine/operation';
import { findById } from '../domain/lookup';
import { actingUser } from '../domain/users';
import { newWebhookSecret } from '../domain/webhooks';
import { type WebhookRecord, webhookEvents } from '../records/webhook';
import { isoTime } from '../support/time';
import { representWebhook } from '../representations/webhook';
import { eq } from '../store/filters';

/** Webhooks are an extension: SPEC.md describes no events. Hosted video APIs (Mux, api.video) have them. */
const kind = 'webhook';
const paths = ['/me/webhooks', '/users/{user_id}/webhooks'];
const onePaths = ['/me/webhooks/{webhook_id}', '/users/{user_id}/webhooks/{webhook_id}'];

const httpUrl = refine(size(string(), 1, 2048), 'url', (value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? true : 'must be an http or https URL';
  } catch {
    return 'must be an absolute http or https URL';
  }
});

async function loadOwnWebhook(ctx: Context<unknown>): Promise<WebhookRecord> {
  const user = await actingUser(ctx, 'manage their webhooks');
  const hook = await findById<WebhookRecord>(ctx.store, 'webhooks', ctx.path.webhook_id);
  if (!hook || hook.user_id !== user.id) throw notFound('webhook');
  return hook;
}

export const createWebhook = operation({
  id: 'users.webhooks.create',
  summary:
    'Extension: register a URL reelbase POSTs video events to (video.available, video.transcode_error, video.deleted), each signed with the answered secret (HMAC-SHA256 of the body in Reelbase-Signature), delivered at least once and in order per video',
  method: 'POST',
  paths,
  scope: 'webhooks',
  params: object({ url: httpUrl, events: optional(size(array(enums([...webhookEvents])), 1, webhookEvents.length)) }),
  async handle(ctx) {
    const user = await actingUser(ctx, 'register their webhooks');
    const hook = await ctx.store.insert<WebhookRecord>('webhooks', {
      user_id: user.id,
      url: ctx.params.url,
      events: [...new Set(ctx.params.events ?? webhookEvents)],
      secret: newWebhookSecret(),
      created_time: isoTime(ctx.now()),
    });
    return created(representWebhook(hook), kind);
  },
});

export const listWebhooks = operation({
  id: 'users.webhooks.list',
  summary: 'Extension: list one’s webhooks, newest first (403 for another user’s)',
  method: 'GET',
  paths,
  scope: 'webhooks',
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const user = await actingUser(ctx, 'list their webhooks');
    const page = pageOf(ctx.params);
    const result = await ctx.store.find<WebhookRecord>('webhooks', {
      where: eq('user_id', user.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map(representWebhook), kind);
  },
});

export const getWebhook = operation({
  id: 'users.webhooks.get',
  summary: 'Extension: get one of one’s webhooks',
  method: 'GET',
  paths: onePaths,
  scope: 'webhooks',
  async handle(ctx) {
    return ok(representWebhook(await loadOwnWebhook(ctx)), kind);
  },
});

export const deleteWebhook = operation({
  id: 'users.webhooks.delete',
  summary: 'Extension: delete one of one’s webhooks; events not yet delivered to it are dropped',
  method: 'DELETE',
  paths: onePaths,
  scope: 'webhooks',
  async handle(ctx) {
    const hook = await loadOwnWebhook(ctx);
    await ctx.store.delete('webhooks', hook.id);
    return noContent();
  },
});

export const webhookOperations = [createWebhook, listWebhooks, getWebhook, deleteWebhook];
