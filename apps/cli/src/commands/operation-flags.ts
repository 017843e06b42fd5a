import { Option, type Command } from 'commander';
import { describeParams, operations, toJsonSchema, type JsonSchema, type Operation, type ParamDoc } from '@reelbase/core';
import type { CallParams } from '@reelbase/http';
import { nestParams } from '../params';

/**
 * Adds a flag for each parameter of operation `id` (`--per_page`, `--sort`…, documented in
 * --help) and answers how to read their values from the parsed options as call params.
 */
export function addOperationFlags(command: Command, id: string): (opts: object) => CallParams {
  const op = operations.find((o) => o.id === id);
  if (!op) throw new Error(`no operation "${id}" in the table`);
  const flags = paramOptions(command, op);
  return (opts) => {
    const values = opts as Record<string, unknown>;
    return nestParams(flags.flatMap(([attribute, param]) => (typeof values[attribute] === 'string' ? [[param, values[attribute] as string] as const] : [])));
  };
}

/** Flags the commands that take operation flags have; an operation parameter of the same name would be shadowed. */
const reserved = new Set(['token', 'base-url', 'store', 'profile', 'api-version', 'json', 'jsonl', 'fields', 'all', 'user', 'help']);

const maxChoices = 12;

/**
 * One flag per parameter of the operation, named as the API names it (`--privacy.view`,
 * `--per_page`, with a hidden `--per-page` too), so `--help` documents them and a mistyped flag
 * is a usage error. Answers the commander attribute → parameter name of each.
 */
function paramOptions(command: Command, op: Operation<unknown>): [string, string][] {
  const out: [string, string][] = [];
  const struct = op.params as Parameters<typeof describeParams>[0];
  const required = struct ? requiredPaths(toJsonSchema(struct)) : new Set<string>();
  for (const param of describeParams(struct)) {
    if (param.type === 'array of object') continue; // not expressible as a flag; `reelbase call` or `api --json-body` can send it
    if (reserved.has(param.name)) throw new Error(`${op.id}: parameter "${param.name}" clashes with a common flag`);
    const text = [required.has(param.name) ? 'required' : '', describe(param)].filter(Boolean).join('; ');
    const option = new Option(`--${param.name} <${placeholder(param)}>`, text);
    const choices = choicesOf(param);
    if (choices) option.choices(choices);
    command.addOption(option);
    out.push([option.attributeName(), param.name]);
    if (param.name.includes('_')) {
      const alias = new Option(`--${param.name.replace(/_/g, '-')} <${placeholder(param)}>`).hideHelp();
      if (choices) alias.choices(choices);
      command.addOption(alias);
      out.push([alias.attributeName(), param.name]);
    }
  }
  return out;
}

/** Dot paths the API always requires: required fields of required objects, from the root down. */
function requiredPaths(schema: JsonSchema, prefix = '', out = new Set<string>()): Set<string> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema.required ?? []) as string[]) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.add(path);
    if (properties[name]) requiredPaths(properties[name], path, out);
  }
  return out;
}

const enumWords = (type: string): string[] | undefined => {
  const match = /^(?:array of )?enum (.*)$/.exec(type);
  return match ? match[1].split(', ') : undefined;
};

function choicesOf(param: ParamDoc): string[] | undefined {
  if (param.type === 'boolean') return ['true', 'false'];
  const words = enumWords(param.type);
  return words && !param.type.startsWith('array') && words.length <= maxChoices ? words : undefined;
}

function placeholder(param: ParamDoc): string {
  if (param.type.startsWith('array')) return 'list';
  if (enumWords(param.type) || param.type === 'boolean') return 'value';
  return param.type === 'union' ? 'value' : param.type;
}

function describe(param: ParamDoc): string {
  const words = enumWords(param.type);
  if (param.type.startsWith('array')) return `comma-separated${words ? `, each one of: ${shorten(words)}` : ''}`;
  if (words && words.length > maxChoices) return `one of ${words.length} values: ${shorten(words)}`;
  return '';
}

const shorten = (words: string[]): string => (words.length > maxChoices ? `${words.slice(0, maxChoices).join(', ')}, …` : words.join(', '));
