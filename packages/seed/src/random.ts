/** A seeded pseudo-random source (sfc32), so one seed always gives the same population. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    // splitmix32 spreads a small seed over the four words of state.
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A float in [low, high). */
  between(low: number, high: number): number {
    return low + this.next() * (high - low);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A heavy-tailed count ≥ 0: Pareto with shape `alpha` and scale `scale`, shifted to start at 0. */
  pareto(alpha: number, scale: number, cap: number): number {
    return Math.min(cap, Math.floor(scale / Math.pow(1 - this.next(), 1 / alpha) - scale));
  }

  /** A log-normal value with the given median and spread (sigma of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    const u = 1 - this.next();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
    return median * Math.exp(sigma * normal);
  }

  /** The numbers 0..n-1 in random order. */
  permutation(n: number): Uint32Array {
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}

/**
 * Draws indexes 0..n-1 with probability proportional to `weights` (a cumulative table and a
 * binary search: O(log n) a draw).
 */
export function weighted(random: Random, weights: ArrayLike<number>): () => number {
  const cumulative = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) cumulative[i] = sum += weights[i];
  if (!(sum > 0)) throw new RangeError('weighted: the weights must add up to more than 0');
  return () => {
    const target = random.next() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cumulative[mid] > target) high = mid;
      else low = mid + 1;
    }
    return low;
  };
}

/**
 * A power law over n items: item i (in `order`, a ranking) is drawn with probability ∝ 1/(rank+1)^s,
 * so a few items get most draws, as followers, uploads and views do on real platforms.
 */
export function zipf(random: Random, n: number, s: number, order: Uint32Array = random.permutation(n)): () => number {
  const weights = new Float64Array(n);
  for (let rank = 0; rank < n; rank++) weights[order[rank]] = 1 / Math.pow(rank + 1, s);
  return weighted(random, weights);
}
