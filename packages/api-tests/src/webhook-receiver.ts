import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  event: { id: string; type: string; created_time: string; data: { video: { uri: string; status: string; error?: string } } };
}

/** A local webhook receiver: records every delivery, answering the statuses it is told to (then 200). */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Statuses to answer next, one per delivery; 200 once they run out. */
  readonly answers: number[] = [];
  private waiting: (() => void)[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver;
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        receiver.deliveries.push({ headers: req.headers, body, event: JSON.parse(body) as Delivery['event'] });
        res.writeHead(receiver.answers.shift() ?? 200).end();
        for (const wake of receiver.waiting.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    return receiver;
  }

  /** Resolves at the next delivery. */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** True when the delivery's signature is the HMAC-SHA256 of its raw body with `secret`. */
  static signed(d: Delivery, secret: string): boolean {
    return d.headers['reelbase-signature'] === `sha256=${createHmac('sha256', secret).update(d.body).digest('hex')}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
