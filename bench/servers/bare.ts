/**
 * The ceiling: node:http answering a fixed JSON body (`bare.ts <body.json>`), serialised per
 * request as any JSON API must; or a list page's bytes written as reelbase writes a page of
 * remembered items (`bare.ts <body.json> --pieces`): the envelope's text and each item's bytes,
 * made once, in one corked write; or, given a type (`bare.ts <file> image/jpeg`), the file's bytes
 * as they are, held in memory, with the validators and caching headers a media link sends.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { announce } from './ready';

const [path, type] = process.argv.slice(2);
const server = createServer(type === undefined ? jsonAnswer(path) : type === '--pieces' ? piecesAnswer(path) : fileAnswer(path, type));
server.listen(0, '127.0.0.1', () => announce(server));

function jsonAnswer(path: string): RequestListener {
  const body: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return (_req, res) => {
    const payload = JSON.stringify(body);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }).end(payload);
  };
}

function piecesAnswer(path: string): RequestListener {
  const { data, ...envelope } = JSON.parse(readFileSync(path, 'utf8')) as { data: unknown[] };
  // The page's JSON with `data` last, as reelbase's list envelope has it.
  const pieces: (string | Buffer)[] = [`${JSON.stringify(envelope).slice(0, -1)},"data":[`];
  data.forEach((item, i) => pieces.push(...(i > 0 ? [','] : []), Buffer.from(JSON.stringify(item))));
  pieces.push(']}');
  const length = pieces.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': length });
    res.cork();
    for (const piece of pieces.slice(0, -1)) res.write(piece);
    res.end(pieces.at(-1));
  };
}

function fileAnswer(path: string, type: string): RequestListener {
  const bytes = readFileSync(path);
  const headers = {
    'Content-Type': type,
    'Content-Length': String(bytes.length),
    ETag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`,
    'Last-Modified': new Date().toUTCString(),
    'Cache-Control': 'public, max-age=31536000, immutable',
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
  };
  return (_req, res) => void res.writeHead(200, headers).end(bytes);
}
