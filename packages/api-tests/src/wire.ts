import { request, type IncomingHttpHeaders } from 'node:http';

/** What a replayed request got back. */
export interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP/1.1 request carrying exactly `headers` (Node adds Host and Connection only): a body
 * of known length as the headers' Content-Length says, chunked when they say so, and held until
 * 100 Continue when they carry `Expect: 100-continue` (curl's PUT of a file of unknown length).
 */
export function wire(method: string, url: string, headers: Record<string, string>, body?: Uint8Array): Promise<Received> {
  return new Promise((resolve, reject) => {
    let sent = false;
    let answered = false;
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        // Answered before it asked for the body: the client stops there, as curl does.
        if (!sent) req.destroy();
      });
    });
    req.on('error', (e) => (answered ? undefined : reject(e)));
    const send = () => {
      sent = true;
      if (body) req.write(body);
      req.end();
    };
    if (headers.Expect === '100-continue') req.on('continue', send);
    else send();
  });
}

