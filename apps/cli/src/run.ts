import { CommanderError } from 'commander';
import { exitCodes, ReportedFailure, UsageError } from './errors';
import { line, type CliIo } from './io';
import { createProgram } from './program';

/**
 * Runs one command line (arguments after the program name) and answers its exit code:
 * 0 ok, 1 API or runtime error, 2 usage error. Never calls process.exit, so tests run it in-process.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCodes.ok;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    if (e instanceof ReportedFailure) return e.exitCode;
    if (e instanceof UsageError) {
      line(io.stderr, `error: ${e.message}`);
      line(io.stderr, '(add --help for usage)');
      return exitCodes.usage;
    }
    line(io.stderr, `error: ${e instanceof Error ? e.message : String(e)}`);
    return exitCodes.failure;
  }
}
