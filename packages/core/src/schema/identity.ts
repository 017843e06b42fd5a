import type { Schema } from '../store/schema-types';

/** Collections of apps, accounts and sign-in (records in domain/identity/records.ts; issue 35). */
export const identityCollections: Schema = {
  /** OAuth clients; `client_id` is what apps present, the numeric id is their uri's. */
  apps: {
    id: 'auto',
    fields: { client_id: 'string', user_id: 'string', created_time: 'string' },
    indexes: [['user_id', 'created_time']],
    unique: [['client_id']],
  },
  /** A user's email and password; `id` is the user's id. */
  accounts: {
    id: 'text',
    fields: { email: 'string' },
    unique: [['email']],
  },
  /** Signed-in browser sessions by the SHA-256 of their cookie, so every server on one database honours them. */
  sessions: {
    id: 'text',
    fields: { user_id: 'string', expires_time: 'string' },
    indexes: [['user_id'], ['expires_time']],
  },
  /** Authorization codes by their SHA-256: single use, 10 minutes. */
  oauth_codes: {
    id: 'text',
    fields: { app_id: 'string', user_id: 'string', expires_time: 'string' },
    indexes: [['app_id'], ['user_id'], ['expires_time']],
  },
  /** Failed sign-ins, one row each, keyed by account or client address, for the brute-force limit. */
  sign_in_failures: {
    id: 'auto',
    fields: { key: 'string', created_time: 'string' },
    indexes: [['key', 'created_time'], ['created_time']],
  },
};
