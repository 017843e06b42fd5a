import type { Method, Operation } from './operation';

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  /** Operations ending here, by method, with the path they were declared under. */
  ops: Map<Method, { op: Operation<unknown>; viaMe: boolean; template: string }>;
}

export type Route =
  | { kind: 'found'; op: Operation<unknown>; path: Record<string, string>; viaMe: boolean; template: string }
  | { kind: 'method'; allow: Method[] }
  | { kind: 'none' };

const newNode = (): Node => ({ statics: new Map(), ops: new Map() });
const segments = (path: string): string[] => path.split('/').filter(Boolean);

/** A segment trie over every path of every operation; static segments win over variables. */
export function createRouter(operations: readonly Operation<unknown>[]): (method: string, path: string) => Route {
  const root = newNode();
  for (const op of operations) {
    for (const path of op.paths) {
      let node = root;
      for (const seg of segments(path)) {
        const m = /^\{(\w+)\}$/.exec(seg);
        if (m) {
          if (node.param && node.param.name !== m[1]) {
            throw new Error(`path ${path}: variable {${m[1]}} clashes with {${node.param.name}} at the same place`);
          }
          node.param ??= { name: m[1], node: newNode() };
          node = node.param.node;
        } else {
          node = node.statics.get(seg) ?? node.statics.set(seg, newNode()).get(seg)!;
        }
      }
      if (node.ops.has(op.method)) throw new Error(`${op.method} ${path} is declared by two operations`);
      node.ops.set(op.method, { op, viaMe: path === '/me' || path.startsWith('/me/'), template: path });
    }
  }
  return (method, path) => {
    const vars: Record<string, string> = {};
    const node = walk(root, segments(path), 0, vars);
    if (!node || node.ops.size === 0) return { kind: 'none' };
    const hit = node.ops.get(method as Method);
    if (!hit) return { kind: 'method', allow: [...node.ops.keys()] };
    return { kind: 'found', op: hit.op, path: vars, viaMe: hit.viaMe, template: hit.template };
  };
}

function walk(node: Node, segs: string[], i: number, vars: Record<string, string>): Node | undefined {
  if (i === segs.length) return node;
  const s = node.statics.get(segs[i]);
  if (s) {
    const found = walk(s, segs, i + 1, vars);
    if (found && found.ops.size) return found;
  }
  if (node.param) {
    const found = walk(node.param.node, segs, i + 1, vars);
    if (found && found.ops.size) {
      vars[node.param.name] = segs[i];
      return found;
    }
  }
  return undefined;
}
