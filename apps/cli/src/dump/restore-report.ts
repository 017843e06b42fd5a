import { json, line, type CliIo } from '../io';
import { checksJson, documentTotal, renderChecks } from './count-report';
import type { CollectionCheck } from './import-store';
import { formatBytes, type VideoFileTally } from './video-files';

/** What `import` and `migrate` did, for their report. */
export interface RestoreOutcome {
  /** The target store, as `describeStore` names it. */
  target: string;
  checks: readonly CollectionCheck[];
  /** The video files the documents reference, checked in the target's files directory. */
  files: VideoFileTally;
  /** `migrate`: the files directory copied into the target's, when one was. */
  copiedFrom?: string;
}

/**
 * The counts on stdout (a table, or one JSON document with `--json`), and a warning on stderr
 * when video files the documents reference are not in the target's files directory.
 */
export function printRestore(io: CliIo, outcome: RestoreOutcome, options: { json?: boolean; summary: string }): void {
  const { files, checks } = outcome;
  if (options.json) {
    io.stdout(
      json({
        target: outcome.target,
        documents: documentTotal(checks),
        collections: checksJson(checks),
        video_files: { referenced: files.files, bytes: files.bytes, missing: files.missing, dir: files.filesDir ?? null, copied_from: outcome.copiedFrom ?? null },
      }),
    );
  } else {
    io.stdout(renderChecks(checks));
    line(io.stdout, `${options.summary}: ${documentTotal(checks)} documents; every count and sequence matches the dump.`);
    if (outcome.copiedFrom) line(io.stdout, `Copied the video files directory ${outcome.copiedFrom} to ${files.filesDir}.`);
    if (files.files > 0 && files.filesDir) {
      line(io.stdout, `Video files: ${files.files} (${formatBytes(files.bytes)}), ${files.files - files.missing} of them in ${files.filesDir}.`);
    }
  }
  if (files.missing > 0) {
    line(
      io.stderr,
      `warning: ${files.missing} of the ${files.files} video files the videos reference are not in ${files.filesDir}: ` +
        (outcome.copiedFrom ? `they were not in ${outcome.copiedFrom} either.` : "copy the source store's files directory there (or set REELBASE_FILES to it)."),
    );
  }
}
