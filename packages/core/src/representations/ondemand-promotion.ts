import type { PromotionRecord } from '../records/ondemand';
import { connection, resourceKey } from './common';
import { pageUri } from './ondemand-page';

export const promotionUri = (promotion: PromotionRecord): string => `${pageUri(promotion.page_id)}/promotions/${promotion.id}`;

/** The On Demand Promotion representation (its owner is the only one who sees it). */
export function representPromotion(promotion: PromotionRecord): Record<string, unknown> {
  const uri = promotionUri(promotion);
  return {
    uri,
    type: promotion.type,
    total: promotion.total,
    uses: promotion.uses,
    download: promotion.download,
    stream_period: promotion.stream_period,
    access_type: promotion.access_type,
    code: promotion.code,
    label: promotion.label,
    discount_type: promotion.discount_type,
    percent_off: promotion.percent_off,
    product_type: promotion.product_type,
    start_time: promotion.start_time,
    end_time: promotion.end_time,
    created_time: promotion.created_time,
    resource_key: resourceKey('ondemand.promotion', promotion.id),
    metadata: { connections: { codes: connection(`${uri}/codes`, promotion.type === 'batch' ? promotion.total : 1) } },
  };
}
