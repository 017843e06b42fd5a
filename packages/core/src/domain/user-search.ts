/** A user's name as stored beside it (the indexed `name_key`): trimmed, lower case. */
export const nameKey = (name: string): string => name.trim().toLowerCase();
