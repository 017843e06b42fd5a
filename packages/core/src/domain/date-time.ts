import { invalidField } from '../engine/errors';

/** An ISO 8601 date-time parameter (`2026-05-01T12:00:00+00:00`) as a Date; a 400 naming `field` otherwise. */
export function readDateTime(value: string, field: string): Date {
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) || Number.isNaN(at)) throw invalidField(field, 'must be an ISO 8601 date-time');
  return new Date(at);
}
