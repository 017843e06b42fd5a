import { findCountry, countries, type Country } from '../catalog/countries';
import { genres, type Genre } from '../catalog/genres';
import { notFound } from '../engine/errors';
import type { Filter } from '../store/store';
import { eq, inSelect, or } from '../store/filters';
import type { UserRecord } from '../records';

/** The genre a path names (404 when the built-in list has none such). */
export function loadGenre(id: string): Genre {
  const genre = genres.get(id.trim().toLowerCase());
  if (!genre) throw notFound('genre');
  return genre;
}

/** The country a path names by ISO code, any case (404 when there is none). */
export function loadCountry(code: string): Country {
  const country = countries.get(code.trim().toUpperCase());
  if (!country) throw notFound('region');
  return country;
}

/** Pages filed under a genre. */
export const inGenre = (genre: Genre): Filter => inSelect('id', 'ondemand_page_genres', 'page_id', eq('genre', genre.id));

/** Pages sold in a country: those limited to regions that include it, and those not limited at all. */
export const soldIn = (country: Country): Filter =>
  or(eq('regions_total', 0), inSelect('id', 'ondemand_regions', 'page_id', eq('country', country.code)));

/** The country a user's profile location names ("Berlin, Germany", "DE"): its last comma-separated part. */
export function regionOf(user: UserRecord | null): Country | null {
  const last = user?.location.split(',').pop()?.trim();
  return last ? findCountry(last) : null;
}
