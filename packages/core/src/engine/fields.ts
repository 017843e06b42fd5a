/**
 * Trims a representation to dot paths (`?fields=uri,name,privacy.view,user.name`), keeping
 * nesting and reaching into arrays; unknown names are ignored (CONVENTIONS.md, fields).
 */
export function trimFields(value: unknown, fields: string): unknown {
  const tree: FieldTree = new Map();
  for (const path of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    let node = tree;
    for (const part of path.split('.')) node = node.get(part) ?? node.set(part, new Map()).get(part)!;
  }
  return tree.size ? pick(value, tree) : value;
}

type FieldTree = Map<string, FieldTree>;

function pick(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, tree));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of tree) {
    if (!Object.hasOwn(value, name)) continue;
    const v = (value as Record<string, unknown>)[name];
    out[name] = sub.size ? pick(v, sub) : v;
  }
  return out;
}

/** A list envelope keeps its paging fields; `fields` applies to each item of `data`. */
export const isListEnvelope = (body: unknown): body is { data: unknown[] } =>
  !!body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data) && 'paging' in body;
