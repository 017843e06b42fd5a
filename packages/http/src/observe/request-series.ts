import type { Metric, Registry } from 'prom-client';

type PromClient = typeof import('prom-client');

const durationName = 'reelbase_http_request_duration_seconds';
const durationBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One operation's requests: its durations (a count a bucket, the last past every bound: +Inf), and its answers by method and status since the last scrape. */
interface OperationTally {
  readonly labels: { operation: string };
  readonly buckets: Float64Array;
  sum: number;
  count: number;
  readonly answered: Map<string, Map<number, Answered>>;
}

interface Answered {
  readonly labels: { operation: string; method: string; status: number };
  count: number;
}

/**
 * The series every request moves (`reelbase_http_requests_total`, `…_request_duration_seconds`,
 * `…_requests_in_flight`), kept in plain numbers as requests come and handed to prom-client when
 * it is scraped. prom-client's `inc` and `observe` validate the labels and build a key string of
 * them on every call, and that work (with its garbage) was the larger part of what metrics cost a
 * token read (issue 47's bench); here a request adds to numbers found by its operation, which
 * come from the operation table and are the same strings every time.
 */
export class RequestSeries {
  #inFlight = 0;
  /** By operation, method and status: found by the strings themselves (the table's, the HTTP parser's), never by a key built a request. */
  readonly #operations = new Map<string, OperationTally>();

  constructor(prom: PromClient, registers: Registry[]) {
    const series = this;
    new prom.Counter({
      name: 'reelbase_http_requests_total',
      help: 'Requests answered, by operation id (or a transport route), method and status',
      labelNames: ['operation', 'method', 'status'],
      registers,
      collect() {
        for (const tally of series.#operations.values())
          for (const byStatus of tally.answered.values())
            for (const answered of byStatus.values()) {
              if (answered.count > 0) this.inc(answered.labels, answered.count);
              answered.count = 0;
            }
      },
    });
    new prom.Gauge({
      name: 'reelbase_http_requests_in_flight',
      help: 'Requests being answered now',
      registers,
      collect() {
        this.set(series.#inFlight);
      },
    });
    const histogram = durationHistogram(this.#operations);
    for (const registry of registers) registry.registerMetric(histogram);
  }

  started(): void {
    this.#inFlight++;
  }

  /** A request answered by `operation` (a label value) with `status` after `seconds`. */
  answered(operation: string, method: string, status: number, seconds: number): void {
    this.#inFlight--;
    let tally = this.#operations.get(operation);
    if (!tally) this.#operations.set(operation, (tally = { labels: { operation }, buckets: new Float64Array(durationBuckets.length + 1), sum: 0, count: 0, answered: new Map() }));
    let bucket = 0;
    while (bucket < durationBuckets.length && seconds > durationBuckets[bucket]) bucket++;
    tally.buckets[bucket]++;
    tally.sum += seconds;
    tally.count++;
    let byStatus = tally.answered.get(method);
    if (!byStatus) tally.answered.set(method, (byStatus = new Map()));
    let answered = byStatus.get(status);
    if (!answered) byStatus.set(status, (answered = { labels: { operation, method, status }, count: 0 }));
    answered.count++;
  }
}

/** A line of the text format, as prom-client's registry takes it from a metric's `get()`. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/**
 * `reelbase_http_request_duration_seconds` as prom-client prints a histogram (cumulative
 * `_bucket{le,operation}` lines, `+Inf`, `_sum`, `_count`), read from the tallies when scraped:
 * prom-client's Histogram cannot take more than one observation a call.
 */
function durationHistogram(operations: Map<string, OperationTally>): Metric {
  const help = 'Time from a request’s arrival to its answer’s last byte, by operation';
  const description = { name: durationName, help, type: 'histogram', aggregator: 'sum' };
  const get = async () => {
    const values: Sample[] = [];
    for (const d of operations.values()) {
      let cumulative = 0;
      durationBuckets.forEach((le, i) => {
        cumulative += d.buckets[i];
        values.push({ labels: { le, ...d.labels }, value: cumulative, metricName: `${durationName}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...d.labels }, value: d.count, metricName: `${durationName}_bucket` });
      values.push({ labels: d.labels, value: d.sum, metricName: `${durationName}_sum` });
      values.push({ labels: d.labels, value: d.count, metricName: `${durationName}_count` });
    }
    return { ...description, values };
  };
  // A registry asks its metrics for these alone; prom-client's Metric type names only its own classes.
  // reset (a registry's resetMetrics) starts every duration over; the counts of answers are the counter's.
  const reset = () => operations.forEach((d) => ((d.sum = d.count = 0), d.buckets.fill(0)));
  return { ...description, get, reset } as unknown as Metric;
}
