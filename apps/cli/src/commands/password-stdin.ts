import type { CliIo } from '../io';
import { UsageError } from '../errors';

/**
 * A password from standard input (never from a flag, which `ps` and shell history would show):
 * everything read, less one trailing newline, so `printf 'pw' |` and `echo pw |` agree.
 */
export async function readPasswordStdin(io: CliIo): Promise<string> {
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY) throw new UsageError('--password-stdin reads the password from standard input: pipe it in (printf %s "$PASSWORD" | reelbase …)');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (!password) throw new UsageError('--password-stdin: standard input held no password');
  return password;
}
