/** A tag as written on a video: the spelling given (spaces collapsed) and the canonical word. */
export interface TagWord {
  name: string;
  canonical: string;
}

/** Tag words are compared in one canonical form: trimmed, lower case, inner spaces collapsed. */
export const canonicalTag = (word: string): string => word.trim().replace(/\s+/g, ' ').toLowerCase();
