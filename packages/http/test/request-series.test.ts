import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as prom from 'prom-client';
import { RequestSeries } from '../src/observe/request-series';

/** Requests as the observer sees them: an operation, a method, a status and seconds (some past every bucket, some on a bound). */
const request = fc.record({
  operation: fc.constantFrom('videos.get', 'users.list', 'unmatched'),
  method: fc.constantFrom('GET', 'HEAD', 'POST'),
  status: fc.constantFrom(200, 204, 404, 429, 0),
  seconds: fc.oneof(fc.double({ min: 0, max: 20, noNaN: true }), fc.constantFrom(0, 0.001, 0.0025, 1, 10)),
});

/** The same three series made and moved with prom-client's own classes, a call a request. */
function reference(registry: prom.Registry) {
  const registers = [registry];
  const requests = new prom.Counter({ name: 'reelbase_http_requests_total', help: 'Requests answered, by operation id (or a transport route), method and status', labelNames: ['operation', 'method', 'status'], registers });
  const seconds = new prom.Histogram({
    name: 'reelbase_http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer’s last byte, by operation',
    labelNames: ['operation'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const inFlight = new prom.Gauge({ name: 'reelbase_http_requests_in_flight', help: 'Requests being answered now', registers });
  return { requests, seconds, inFlight };
}

/** The exposition with its series in one order: the tallies are kept by operation, prom-client's by first use. */
const sorted = (text: string): string => text.split('\n').sort().join('\n');

describe('RequestSeries', () => {
  it('prints what prom-client prints for the same requests, scraped between them and with some still in flight', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { maxLength: 40 }), fc.nat({ max: 40 }), fc.nat({ max: 3 }), async (requests, scrapedAfter, open) => {
        const ours = new prom.Registry();
        const theirs = new prom.Registry();
        const series = new RequestSeries(prom, [ours]);
        const expected = reference(theirs);
        for (let i = 0; i < open; i++) {
          series.started();
          expected.inFlight.inc();
        }
        for (const [i, r] of requests.entries()) {
          // A scrape folds the counts so far into prom-client's counter; later ones must add to them.
          if (i === scrapedAfter) assert.equal(sorted(await ours.metrics()), sorted(await theirs.metrics()));
          series.started();
          series.answered(r.operation, r.method, r.status, r.seconds);
          expected.requests.inc({ operation: r.operation, method: r.method, status: r.status });
          expected.seconds.observe({ operation: r.operation }, r.seconds);
        }
        assert.equal(sorted(await ours.metrics()), sorted(await theirs.metrics()));
      }),
      { numRuns: 200 },
    );
  });
});
