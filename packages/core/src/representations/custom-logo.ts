import type { CustomLogoRecord } from '../domain/embed-records';
import { resourceKey, type RepresentContext } from './common';
import { pictureSizes } from './picture';

export const customLogoUri = (logo: CustomLogoRecord): string => `/users/${logo.user_id}/customlogos/${logo.id}`;

/** A custom logo, shaped like a Picture: `link` is its largest size. */
export function representCustomLogo(logo: CustomLogoRecord, ctx: RepresentContext): Record<string, unknown> {
  const sizes = pictureSizes('customlogo', `${ctx.baseUrl}/static/customlogos/${logo.id}`);
  return {
    uri: customLogoUri(logo),
    active: logo.active,
    link: sizes[sizes.length - 1].link,
    sizes,
    created_time: logo.created_time,
    resource_key: resourceKey('customlogo', logo.id),
  };
}
