import type { Command } from 'commander';
import { checkApiVersion, connect, type TargetOptions } from '../client';
import { ReportedFailure, UsageError } from '../errors';
import { json, line, type CliIo } from '../io';
import { resolveTarget } from '../target';
import { formBody, jsonBody, type TransportRequest } from '../transport/transport';
import { addTargetOptions, collect } from './options';

interface ApiOptions extends TargetOptions {
  data: string[];
  jsonBody?: string;
  header: string[];
}

/** `reelbase api METHOD PATH`: any operation, in-process on a store or over HTTP; prints the body. */
export function registerApi(program: Command, io: CliIo): void {
  const command = program
    .command('api')
    .description('call any API operation and print the response body (in-process on a store, or over HTTP with --base-url)')
    .argument('<method>', 'GET, POST, PATCH, PUT, DELETE…')
    .argument('<path>', 'path with optional query string, e.g. /me/videos?per_page=5')
    .option('-d, --data <key=value>', 'a parameter (repeatable; dot notation nests, e.g. privacy.view=nobody): query for GET, urlencoded body otherwise', collect, [])
    .option('--json-body <json>', 'a JSON request body (not with GET or -d)')
    .option('-H, --header <name:value>', 'extra request header (repeatable)', collect, []);
  addTargetOptions(command)
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 for a 2xx answer (body on stdout), 1 for any other status (body on stderr) or a',
        'network error, 2 for a usage error.',
        '',
        'Examples:',
        '  reelbase api GET /me --token $TOKEN',
        '  reelbase api PATCH /videos/1 -d name=Hello -d privacy.view=nobody --token $TOKEN',
        "  reelbase api POST /me/videos --json-body '{\"name\":\"Hi\",\"upload\":{\"approach\":\"tus\",\"size\":1}}' --token $TOKEN",
        '  reelbase api GET /videos/1 --base-url http://127.0.0.1:8080 --api-version 3.2',
      ].join('\n'),
    )
    .action(async (methodArg: string, path: string, opts: ApiOptions) => {
      const target = await resolveTarget(io, opts);
      const request = buildRequest(methodArg, path, opts, target.token);
      const { transport } = await connect(io, target);
      let answer;
      try {
        answer = await transport.request(request);
      } finally {
        await transport.close();
      }
      const ok = answer.status >= 200 && answer.status < 300;
      const write = ok ? io.stdout : io.stderr;
      if (answer.body === undefined) {
        if (!ok) line(io.stderr, `HTTP ${answer.status}`);
      } else write(typeof answer.body === 'string' ? `${answer.body.replace(/\n?$/, '\n')}` : json(answer.body));
      if (!ok) throw new ReportedFailure(1);
    });
}

/** Turns the flags (and the token the target resolved to) into one transport request; every problem with them is a UsageError. */
export function buildRequest(methodArg: string, path: string, opts: Omit<ApiOptions, 'token'>, token: string | undefined): TransportRequest {
  if (!/^[A-Za-z]+$/.test(methodArg)) throw new UsageError(`invalid method "${methodArg}"`);
  const method = methodArg.toUpperCase();
  if (!path.startsWith('/')) throw new UsageError(`path must start with "/" (got "${path}"); give the server with --base-url`);
  const pairs = opts.data.map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-d expects key=value (got "${pair}")`);
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  });
  const headers: Record<string, string> = {};
  if (opts.apiVersion !== undefined) {
    checkApiVersion(opts.apiVersion);
    headers.accept = `application/vnd.reelbase.*+json;version=${opts.apiVersion}`;
  }
  if (token) headers.authorization = `Bearer ${token}`;
  for (const header of opts.header) {
    const colon = header.indexOf(':');
    const name = colon < 0 ? '' : header.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header expects name:value (got "${header}")`);
    headers[name.toLowerCase()] = header.slice(colon + 1).trim();
  }
  const request: TransportRequest = { method, path, headers };
  if (opts.jsonBody !== undefined) {
    if (method === 'GET' || method === 'HEAD') throw new UsageError(`--json-body cannot be sent with ${method}; use -d for query parameters`);
    if (pairs.length) throw new UsageError('give either -d pairs or --json-body, not both');
    let value: unknown;
    try {
      value = JSON.parse(opts.jsonBody);
    } catch (e) {
      throw new UsageError(`--json-body is not valid JSON: ${(e as Error).message}`);
    }
    return { ...request, ...jsonBody(value) };
  }
  if (!pairs.length) return request;
  return method === 'GET' || method === 'HEAD' ? { ...request, query: pairs } : { ...request, ...formBody(pairs) };
}
