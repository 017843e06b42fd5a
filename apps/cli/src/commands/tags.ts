import type { Command } from 'commander';
import { openClient, type TargetOptions } from '../client';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { bulkHelp, plural, runBulk, type BulkOptions } from '../run-bulk';
import { runOperation, type OutputOptions } from '../run-operation';
import { collectRefs, videoRef } from '../batch/id-list';
import { addBatchOptions } from './batch-options';
import { addOperationFlags } from './operation-flags';
import { addOutputOptions, addTargetOptions, collect, jsonOption } from './options';

type ChangeOptions = BulkOptions & { video: string[]; videos?: string; tags: string };

/** SPEC.md, Limits: at most 20 tags on a video. */
const maxTags = 20;

/** `reelbase tags add|remove|list`: tags on many videos at once. */
export function registerTags(program: Command, io: CliIo): void {
  const tags = program.command('tags').description("add and remove tags on many videos at once; list a video's tags");

  const add = changeCommand(tags, 'add', 'add tags to videos: one request per video (PUT /videos/{id}/tags); tags already there stay');
  add
    .addHelpText('after', bulkHelp(['reelbase tags add --video 7 --tags travel,food', 'reelbase tags add --videos ids.txt --tags "night sky,stars" --concurrency 16']))
    .action(async (opts: ChangeOptions) => {
      const words = tagWords(opts.tags);
      await runBulk(io, opts, {
        label: 'tag',
        tasks: videosOf(io, opts),
        send: (client, video) => client.call('videos.tags.add', { video_id: video }, { body: words.map((tag) => ({ tag })) }),
        describe: (video) => `video ${video}`,
        done: (n) => `Tagged ${plural(n, 'video')} with ${words.join(', ')}.`,
      });
    });

  const remove = changeCommand(tags, 'remove', 'take tags off videos: one request per video and tag (DELETE /videos/{id}/tags/{word})');
  remove
    .addHelpText('after', bulkHelp(['reelbase tags remove --video 7 --tags travel', 'reelbase tags remove --videos ids.txt --tags draft']))
    .action(async (opts: ChangeOptions) => {
      const words = tagWords(opts.tags);
      const tasks = videosOf(io, opts).flatMap((video) => words.map((word) => ({ video, word })));
      await runBulk(io, opts, {
        label: 'untag',
        tasks,
        send: (client, t) => client.call('videos.tags.delete', { video_id: t.video, word: t.word }),
        describe: (t) => `video ${t.video}, tag "${t.word}"`,
        done: (n) => `Removed ${plural(n, 'tag')} (${words.join(', ')} from ${plural(tasks.length / words.length, 'video')}).`,
      });
    });

  const list = tags.command('list').description("list a video's tags").requiredOption('--video <id>', 'video id or URI');
  const listParams = addOperationFlags(list, 'videos.tags.list');
  addOutputOptions(list, { pages: false });
  addTargetOptions(list)
    .addHelpText('after', ['', 'Examples:', '  reelbase tags list --video 7', '  reelbase tags list --video /videos/7 --json'].join('\n'))
    .action(async (opts: TargetOptions & OutputOptions & { video: string }) => {
      const [video] = collectRefs(io, 'video', videoRef, [opts.video]);
      const client = await openClient(io, opts);
      try {
        await runOperation(io, client, 'videos.tags.list', { ...listParams(opts), video_id: video }, { ...opts, columns: ['name', 'canonical', 'uri'] });
      } finally {
        await client.close();
      }
    });
}

function changeCommand(tags: Command, name: string, description: string): Command {
  const command = tags
    .command(name)
    .description(description)
    .requiredOption('--tags <words>', 'comma-separated tags, e.g. travel,food')
    .option('--video <id>', 'a video id or URI (repeatable)', collect, [])
    .option('--videos <file>', 'a file of video ids or URIs, one per line (blank lines and # comments skipped)');
  addBatchOptions(command, 8);
  return addTargetOptions(command).addOption(jsonOption());
}

const videosOf = (io: CliIo, opts: ChangeOptions): string[] => collectRefs(io, 'video', videoRef, opts.video, opts.videos);

/** The words of --tags, each once; `/` cannot travel in a path and `,` separates them. */
function tagWords(flag: string): string[] {
  const words = [...new Set(flag.split(',').map((w) => w.trim().replace(/\s+/g, ' ')).filter(Boolean))];
  if (!words.length) throw new UsageError('--tags needs at least one tag, e.g. --tags travel,food');
  if (words.length > maxTags) throw new UsageError(`--tags names ${words.length} tags; a video carries at most ${maxTags}`);
  const bad = words.find((w) => w.includes('/'));
  if (bad !== undefined) throw new UsageError(`--tags: "${bad}" contains "/", which a tag cannot`);
  return words;
}
