import type { Country } from '../catalog/countries';
import { resourceKey } from './common';

export const regionUri = (code: string): string => `/ondemand/regions/${code}`;

/** The On Demand Region representation: one country. */
export const representRegion = (country: Country): Record<string, unknown> => ({
  uri: regionUri(country.code),
  name: country.name,
  country_code: country.code,
  resource_key: resourceKey('ondemand.region', country.code),
});
