import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCertificate, opensslPath } from './certificate';
import { until } from './held-patch';

/** Debian's nginx (what .ci/run installs), or NGINX_PATH. */
const nginxPath = (): string | null => [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx'].find((p): p is string => !!p && existsSync(p)) ?? null;

/** The `skip` option of the proxy suite: false with nginx and openssl, else the one line that says how to get them. */
export const nginxSkip = (): false | string =>
  nginxPath() && opensslPath() ? false : 'no nginx or openssl: apt-get install -y nginx openssl (.ci/run does), or set NGINX_PATH';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The server block docs/deployment.md shows, shipped for operators to copy. */
export const nginxTemplatePath = join(root, 'deploy', 'nginx', 'reelbase.conf');

/** A port free now on 127.0.0.1 (nginx must be told one; it cannot report an ephemeral one). */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const accepting = (port: number, child: ChildProcess, log: string): Promise<void> =>
  until(() => {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
    return new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  }, 'nginx to accept connections');

/** The template with this run's addresses and files in place of the documented ones; each must be there. */
function fill(template: string, swaps: [string, string][]): string {
  return swaps.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`deploy/nginx/reelbase.conf no longer holds "${from}": update test/src/nginx.ts with it`);
    return text.split(from).join(to);
  }, template);
}

export interface Proxy {
  /** `https://localhost:PORT`. */
  url: string;
  /** The self-signed certificate the proxy presents, to trust in requests. */
  ca: string;
  stop(): Promise<void>;
}

/**
 * nginx on loopback in front of `upstream` (a port on 127.0.0.1), configured by the documented
 * server block, under a temporary prefix of its own (non-root friendly: one process, no privilege
 * drop, its pid, logs and temporary files there), with a certificate made by openssl for localhost.
 */
export async function startNginx(upstream: number): Promise<Proxy> {
  const prefix = mkdtempSync(join(tmpdir(), 'reelbase-nginx-'));
  const { key, cert } = makeCertificate(prefix, ['localhost', 'IP:127.0.0.1'], { key: 'privkey.pem', cert: 'fullchain.pem' });
  const [https, http] = [await freePort(), await freePort()];
  const site = fill(readFileSync(nginxTemplatePath, 'utf8'), [
    ['server 127.0.0.1:8080;', `server 127.0.0.1:${upstream};`],
    ['listen 80;', `listen 127.0.0.1:${http};`],
    ['listen 443 ssl;', `listen 127.0.0.1:${https} ssl;`],
    ['/etc/ssl/reelbase/fullchain.pem', cert],
    ['/etc/ssl/reelbase/privkey.pem', key],
  ]);
  mkdirSync(join(prefix, 'logs'));
  writeFileSync(join(prefix, 'reelbase.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${join(prefix, t)};`).join('\n');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `daemon off;\nmaster_process off;\npid ${join(prefix, 'nginx.pid')};\nerror_log ${join(prefix, 'logs', 'error.log')} warn;\nevents { worker_connections 64; }\n` +
      `http {\n    access_log off;\n${temp}\n    include ${join(prefix, 'reelbase.conf')};\n}\n`,
  );
  const log = join(prefix, 'logs', 'error.log');
  const child = spawn(nginxPath()!, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', log], { stdio: 'ignore' });
  try {
    await accepting(https, child, log);
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(prefix, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `https://localhost:${https}`,
    ca: readFileSync(cert, 'utf8'),
    async stop() {
      if (child.exitCode === null) await new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM')));
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/**
 * fetch over node:https trusting `ca` (Node's fetch cannot be given a CA without undici): enough
 * of fetch for the tests (method, headers, a body, manual redirects), answering a web Response.
 */
export function tlsFetch(ca: string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const headers = Object.fromEntries(new Headers(init.headers));
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(init.body as string | Uint8Array);
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const answered = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answered.append(name, v);
          const nullBody = [204, 205, 304].includes(res.statusCode!) || init.method === 'HEAD';
          resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status: res.statusCode, headers: answered }));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }) as typeof fetch;
}
