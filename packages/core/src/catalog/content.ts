/** Values of the /contentratings list; also the allowed `content_filter` words of a user. */
export const contentRatings = ['drugs', 'language', 'nudity', 'safe', 'unrated', 'violence'] as const;

export const licenses = ['by', 'by-nc', 'by-nc-nd', 'by-nc-sa', 'by-nd', 'by-sa', 'cc0'] as const;

export const privacyViews = ['anybody', 'contacts', 'disable', 'nobody', 'password', 'unlisted', 'users'] as const;
export const privacyComments = ['anybody', 'contacts', 'nobody'] as const;
export const privacyEmbeds = ['private', 'public', 'whitelist'] as const;

/** Plans; `basic` is the free plan with the restrictions SPEC.md names. */
export const accounts = ['basic', 'plus', 'pro', 'business', 'premium'] as const;
