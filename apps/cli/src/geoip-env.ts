import type { ServiceConfig } from '@reelbase/core';
import { readFileSync } from 'node:fs';
import { Reader, type CountryResponse } from 'maxmind';
import type { Env } from './context';
import { UsageError } from './errors';

/**
 * The analytics' country dimension (docs/embedding.md "Analytics"): REELBASE_GEOIP_DB names a
 * MaxMind-format database (GeoLite2 Country or City, DB-IP's…), read once with `maxmind`; a beacon's
 * address is looked up there and only the country kept. Unset: every country is null.
 */
export function geoipFromEnv(env: Env): Partial<ServiceConfig> {
  const path = env.REELBASE_GEOIP_DB?.trim();
  if (!path) return {};
  let reader: Reader<CountryResponse>;
  try {
    reader = new Reader<CountryResponse>(readFileSync(path));
  } catch (e) {
    throw new UsageError(`REELBASE_GEOIP_DB: ${path} is not a MaxMind database that can be read (${e instanceof Error ? e.message : String(e)})`);
  }
  return {
    countryOf(address) {
      try {
        return reader.get(address.replace(/^::ffff:(?=\d+\.)/, ''))?.country?.iso_code ?? null;
      } catch {
        return null;
      }
    },
  };
}
