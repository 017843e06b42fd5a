import type { Command } from 'commander';
import { operations, type Operation } from '@reelbase/core';
import type { CallParams } from '@reelbase/http';
import { openClient, type TargetOptions } from '../client';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { runOperation, type OutputOptions } from '../run-operation';
import { addOperationFlags } from './operation-flags';
import { addOutputOptions, addTargetOptions } from './options';
import { resources, videoColumns, type Resource, type Verb } from './resources';

/** What each verb says about itself and the positional ids it takes after the resource's own. */
const verbs: Record<Verb, { describe(r: Resource): string; videoArg?: true; pages?: true; done?(r: Resource, ids: string[]): string }> = {
  list: { describe: (r) => `list ${r.noun}s`, pages: true },
  get: { describe: (r) => `show one ${r.noun}` },
  create: { describe: (r) => `create ${a(r.noun)}` },
  update: { describe: (r) => `edit ${a(r.noun)}`, done: (r, [id]) => `Updated ${r.noun} ${id}.` },
  delete: { describe: (r) => `delete ${a(r.noun)}`, done: (r, [id]) => `Deleted ${r.noun} ${id}.` },
  videos: { describe: (r) => `list the videos in ${a(r.noun)}`, pages: true },
  'add-video': { describe: (r) => `add a video to ${a(r.noun)}`, videoArg: true, done: (r, [id, video]) => `Added video ${video} to ${r.noun} ${id}.` },
  'remove-video': { describe: (r) => `remove a video from ${a(r.noun)}`, videoArg: true, done: (r, [id, video]) => `Removed video ${video} from ${r.noun} ${id}.` },
};

const a = (noun: string): string => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** Adds `reelbase videos|channels|albums|folders|ondemand …`, generated from the table in resources.ts. */
export function registerResources(program: Command, io: CliIo): void {
  for (const resource of resources) {
    const group = program
      .command(resource.name)
      .description(`${resource.noun}s: ${Object.keys(resource.operations).join(', ')}`)
      .addHelpText('after', ['', 'Examples:', ...resource.examples.map((e) => `  ${e}`)].join('\n'));
    for (const [verb, id] of Object.entries(resource.operations) as [Verb, string][]) addVerb(group, io, resource, verb, operationById(id));
  }
}

function operationById(id: string): Operation<unknown> {
  const op = operations.find((o) => o.id === id);
  if (!op) throw new Error(`resources.ts names operation "${id}", which the table does not have`);
  return op;
}

function addVerb(group: Command, io: CliIo, resource: Resource, verb: Verb, op: Operation<unknown>): void {
  const spec = verbs[verb];
  const args: [string, string][] = verb === 'list' || verb === 'create' ? [] : [[resource.id, resource.idParam ?? resource.id]];
  if (spec.videoArg) args.push(['video_id', 'video_id']);
  const variables = new Set(op.paths.flatMap((p) => [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
  for (const [, param] of args) if (!variables.has(param)) throw new Error(`${op.id} has no path variable {${param}} for \`${resource.name} ${verb}\``);
  const byUser = variables.has('user_id');

  const command = group.command(verb).description(spec.describe(resource));
  for (const [name] of args) command.argument(`<${name}>`, name === 'video_id' ? 'video id (or its uri)' : `${resource.noun} id (or its uri)`);
  if (byUser) command.option('--user <id>', `another user's ${resource.noun}s instead of yours (default: /me)`);
  const readParams = addOperationFlags(command, op.id);
  addOutputOptions(command, { pages: !!spec.pages });
  addTargetOptions(command).addHelpText(
    'after',
    [
      '',
      `Calls ${op.id}: ${op.method} ${op.paths.join(' | ')}${op.scope ? ` (scope ${op.scope})` : ''}.`,
      'Exit codes: 0 ok, 1 API error (its error_code on stderr), 2 usage error.',
    ].join('\n'),
  );
  command.action(async (...received: unknown[]) => {
    const ids = (received.slice(0, args.length) as string[]).map(idFromArg);
    const opts = received[args.length] as TargetOptions & OutputOptions & { user?: string };
    const call: CallParams = readParams(opts);
    args.forEach(([, param], i) => (call[param] = ids[i]));
    if (opts.user !== undefined) call.user_id = idFromArg(opts.user);
    const columns = verb === 'videos' ? videoColumns : resource.columns;
    const client = await openClient(io, opts);
    try {
      await runOperation(io, client, op.id, call, { ...opts, columns, done: spec.done?.(resource, ids) });
    } finally {
      await client.close();
    }
  });
}

/** `7` or a uri such as `/users/1/albums/7` (as the tables print them): the id is the last segment. */
function idFromArg(value: string): string {
  const id = value.split('/').filter(Boolean).pop() ?? '';
  if (!id) throw new UsageError(`"${value}" is not an id`);
  return id;
}
