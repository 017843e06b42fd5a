import type { CustomLogoRecord } from '../records/embed';
import { resourceKey, type RepresentContext } from './common';
import { imageFields, pictureContent } from './picture';

export const customLogoUri = (logo: CustomLogoRecord): string => `/users/${logo.user_id}/customlogos/${logo.id}`;

/** A custom logo, shaped like a Picture: `link` is the image (PUT one there), `sizes` its sizes. */
export function representCustomLogo(logo: CustomLogoRecord, ctx: RepresentContext): Record<string, unknown> {
  const { link, sizes } = imageFields(ctx, 'customlogos', logo.id, pictureContent(logo.image, 'customlogo', null, null), 'customlogo', logo.user_id);
  return {
    uri: customLogoUri(logo),
    active: logo.active,
    link,
    sizes,
    created_time: logo.created_time,
    resource_key: resourceKey('customlogo', logo.id),
  };
}
