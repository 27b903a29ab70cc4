/**
 * Seeded, stateless hashing for the synthetic data. Every value the sandbox
 * serves is a pure function of (seed, entity, metric, day), so a value never
 * depends on the window asked for or on "today", and any point can be computed
 * on its own without generating the history before it.
 */

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { imul, exp, log } = Math;

/** murmur3's 32-bit finaliser: a cheap, well-mixed bijection on uint32. */
function fmix32(input: number): number {
  let h = input >>> 0;
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines a hash with one more integer input. Order matters: mix(a, b) ≠ mix(b, a). */
export function mix(a: number, b: number): number {
  return fmix32(a ^ fmix32((b + 0x9e3779b9) | 0));
}

/** FNV-1a over UTF-16 code units, finalised; stable across runs and platforms. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** A hash of the seed and a list of keys (strings or integers). */
export function hashOf(seed: number, ...keys: Array<string | number>): number {
  let h = fmix32(seed);
  for (const key of keys) h = mix(h, typeof key === "number" ? key : hashString(key));
  return h;
}

/** Maps a hash to [0, 1). */
export function unit(h: number): number {
  return (h >>> 0) / 4294967296;
}

/** A uniform number in [lo, hi) drawn from a hash. */
export function between(h: number, lo: number, hi: number): number {
  return lo + (hi - lo) * unit(h);
}

/** Log-uniform in [lo, hi): for scales that span orders of magnitude. */
export function logBetween(h: number, lo: number, hi: number): number {
  return exp(between(h, log(lo), log(hi)));
}

/** mulberry32: a small sequential generator, used where order of draws is the point (fault injection). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
