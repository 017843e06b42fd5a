import net from 'node:net';

/**
 * Makes autocannon's connections read into one reused buffer each instead of a fresh 64 KiB one
 * per read (Node's default). With the default, on loopback and two shared cores, what a server's
 * one large write costs swung with the answer's byte count, whoever the server: windows of sizes
 * (bare node:http at ~156–164 KB and ~212–228 KB; reelbase's channel page of 25 videos, 156 KB,
 * 170 µs of server CPU a request where 24 and 26 took 145 µs) that wrk and a reused-buffer reader
 * do not show (token against anonymous channel page 73–76% raw with the default, 89–96% reused,
 * wrk 92–100%). Safe here: autocannon parses each read before the next and keeps no slice of it.
 *
 * Only autocannon's call shape, `net.connect(port, host)`, is wrapped; fetch (undici) connects
 * with an options object and a socket path is a string of its own, which pass through untouched.
 */
export function readIntoOneBuffer(): void {
  const connect = net.connect;
  const wrapped = function (this: unknown, ...args: unknown[]): net.Socket {
    const [port, host] = args;
    const tcp = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
    if (!tcp) return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    const socket: net.Socket = connect({
      port: Number(port),
      host: typeof host === 'string' ? host : undefined,
      onread: {
        buffer: Buffer.allocUnsafe(65_536),
        callback: (n, buf) => {
          socket.emit('data', buf.subarray(0, n));
          return true; // keep reading
        },
      },
    });
    return socket;
  };
  net.connect = wrapped as typeof net.connect;
}
