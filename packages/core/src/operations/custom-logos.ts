import { boolean, object, optional } from 'superstruct';
import { forbidden, notFound } from '../engine/errors';
import { by, listParams, listReply, pageOf } from '../engine/list';
import { created, ok, operation, type Context } from '../engine/operation';
import type { CustomLogoRecord } from '../records/embed';
import { findById } from '../domain/lookup';
import { actingUser } from '../domain/users';
import { representContext } from './represent-context';
import { isoTime } from '../support/time';
import { representCustomLogo } from '../representations/custom-logo';
import { and, eq } from '../store/filters';

/** SPEC.md "403 user cannot view": a user's logos are theirs alone. */
const viewLogos = 'see their custom logos';

const represent = (ctx: Context<unknown>, logo: CustomLogoRecord) => representCustomLogo(logo, representContext(ctx));

export const createCustomLogo = operation({
  id: 'users.customlogos.create',
  summary:
    'Add a custom logo for one’s own videos; `active` makes it the one active logo (403 for another user, 403 for basic-plan accounts)',
  method: 'POST',
  paths: ['/me/customlogos', '/users/{user_id}/customlogos'],
  scope: 'upload',
  params: object({ active: optional(boolean()) }),
  async handle(ctx) {
    const user = await actingUser(ctx, 'upload custom logos for their videos');
    if (user.account === 'basic') throw forbidden('Custom logos need a paid plan; basic-plan accounts cannot add them.');
    const active = ctx.params.active ?? false;
    if (active) {
      const { items } = await ctx.store.find<CustomLogoRecord>('custom_logos', { where: and(eq('user_id', user.id), eq('active', true)) });
      for (const other of items) await ctx.store.update<CustomLogoRecord>('custom_logos', other.id, { active: false });
    }
    const logo = await ctx.store.insert<CustomLogoRecord>('custom_logos', { user_id: user.id, active, created_time: isoTime(ctx.now()) });
    return created(represent(ctx, logo), 'picture');
  },
});

export const listCustomLogos = operation({
  id: 'users.customlogos.list',
  summary: 'List one’s custom logos, newest first (403 for another user’s)',
  method: 'GET',
  paths: ['/me/customlogos', '/users/{user_id}/customlogos'],
  auth: 'user',
  // SPEC.md lists no parameters, but per_page applies to every list (SPEC.md, Limits).
  params: object(listParams({ direction: false })),
  async handle(ctx) {
    const user = await actingUser(ctx, viewLogos);
    const page = pageOf(ctx.params);
    const result = await ctx.store.find<CustomLogoRecord>('custom_logos', {
      where: eq('user_id', user.id),
      orderBy: [...by('created_time', 'desc'), ...by('id', 'desc')],
      offset: page.offset,
      limit: page.limit,
    });
    return listReply(ctx, page, result.total, result.items.map((l) => represent(ctx, l)), 'picture');
  },
});

export const getCustomLogo = operation({
  id: 'users.customlogos.get',
  summary: 'Get one of one’s custom logos (403 for another user’s, 404 when the user has no such logo)',
  method: 'GET',
  paths: ['/me/customlogos/{logo_id}', '/users/{user_id}/customlogos/{logo_id}'],
  auth: 'user',
  async handle(ctx) {
    const user = await actingUser(ctx, viewLogos);
    const logo = await findById<CustomLogoRecord>(ctx.store, 'custom_logos', ctx.path.logo_id);
    if (!logo || logo.user_id !== user.id) throw notFound('custom logo');
    return ok(represent(ctx, logo), 'picture');
  },
});

export const customLogoOperations = [createCustomLogo, listCustomLogos, getCustomLogo];
