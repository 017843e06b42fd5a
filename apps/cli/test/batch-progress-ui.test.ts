import assert from 'node:assert/strict';
import { stripVTControlCharacters } from 'node:util';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import type { ProgressSnapshot } from '../src/batch/progress';
import { BatchProgress } from '../src/ui/batch-progress';

const snapshot = (over: Partial<ProgressSnapshot> = {}): ProgressSnapshot => ({
  label: 'batch',
  total: 1000,
  done: 400,
  failed: 20,
  skipped: 0,
  elapsedMs: 10_000,
  rate: 42,
  etaMs: 13_810,
  waiting: null,
  ...over,
});

const screen = (frame: string | undefined): string[] => stripVTControlCharacters(frame ?? '').split('\n').map((l) => l.trimEnd());

describe('BatchProgress (Ink)', () => {
  it('draws the bar, the percentage, the counts with rate and ETA', () => {
    const ui = render(createElement(BatchProgress, { snapshot: snapshot(), width: 20 }));
    assert.deepEqual(screen(ui.lastFrame()), [
      '████████░░░░░░░░░░░░ 42% batch',
      '420/1000 (42%) · 400 done · 20 failed · 42.0/s · ETA 14s',
    ]);
    ui.unmount();
  });

  it('shows the back-off while requests are held back, and the lines an earlier run did', () => {
    const ui = render(createElement(BatchProgress, { snapshot: snapshot({ failed: 0, skipped: 120, waiting: { ms: 60_000, reason: 'rate limited (429), retry 1 of 5' } }), width: 20 }));
    assert.deepEqual(screen(ui.lastFrame()), [
      '████████░░░░░░░░░░░░ 40% batch',
      '400/1000 (40%) · 400 done · 0 failed · 120 skipped · 42.0/s · ETA 14s',
      'waiting 1m00s: rate limited (429), retry 1 of 5',
    ]);
    ui.rerender(createElement(BatchProgress, { snapshot: snapshot({ done: 1000, failed: 0, etaMs: 0 }), width: 20 }));
    assert.deepEqual(screen(ui.lastFrame()), ['████████████████████ 100% batch', '1000/1000 (100%) · 1000 done · 0 failed · 42.0/s']);
    ui.unmount();
  });
});
