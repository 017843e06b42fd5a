import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificate } from './certificate';

/** A TLS front for a server on loopback: its port, and how to close it. */
export interface TlsFront {
  port: number;
  close(): Promise<void>;
}

/**
 * An https proxy on an ephemeral loopback port in front of `upstream` (a port on 127.0.0.1), with
 * a certificate openssl makes for `host`; it says `X-Forwarded-Proto: https`, so a server started
 * with `trustProxy` makes its links https. For a browser that must reach this server under a name
 * only https answers for (HSTS-preloaded hosts such as player.vimeo.com), mapped there with
 * `--host-resolver-rules` and trusted with `--ignore-certificate-errors`.
 */
export async function startTlsFront(upstream: number, host: string): Promise<TlsFront> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbase-tls-'));
  try {
    const { key, cert } = makeCertificate(dir, [host]);
    const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const headers = { ...req.headers, 'x-forwarded-proto': 'https' };
      const inner = request({ host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      inner.on('error', () => res.destroy());
      req.pipe(inner);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      port,
      close: () => new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
