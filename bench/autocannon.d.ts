// The part of autocannon 8's API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to send in all, in place of a duration. */
    amount?: number;
    headers?: Record<string, string>;
    /** Sent in turn by each connection (path relative to `url`'s origin); `setupRequest` may change each before it goes. */
    requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string; setupRequest?: (request: Request) => Request }[];
  }
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
