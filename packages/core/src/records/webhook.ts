/** The events a webhook can ask for (an extension: hosted video APIs such as Mux and api.video send these). */
export const webhookEvents = ['video.available', 'video.transcode_error', 'video.deleted'] as const;

export type WebhookEvent = (typeof webhookEvents)[number];

/** A URL a user asked reelbase to POST events to; `secret` signs each delivery (HMAC-SHA256 of the body). */
export type WebhookRecord = {
  id: string;
  user_id: string;
  url: string;
  events: WebhookEvent[];
  secret: string;
  created_time: string;
};
