/** Drops keys whose value is undefined, so a shallow store merge keeps what is stored. */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Deep-merges a validated partial object over stored settings (nested objects merge, values replace). */
export function mergeDeep<T>(base: T, patch: unknown): T {
  if (patch === undefined) return base;
  if (!isPlain(base) || !isPlain(patch)) return patch as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) out[k] = mergeDeep(out[k], v);
  return out as T;
}

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
