/**
 * An in-memory LRU cache with a per-entry TTL and a cap on the approximate
 * bytes held. A Map keeps insertion order, so re-inserting on every hit makes
 * its first key the least recently used one.
 */
interface Entry<V> {
  value: V;
  expiresAt: number;
  size: number;
}

export class LruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** `size` is an estimate in bytes; an entry larger than the whole cap is not stored. */
  set(key: string, value: V, ttlMs: number, size: number): void {
    this.delete(key);
    if (ttlMs <= 0 || size > this.maxBytes) return;
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs, size });
    this.total += size;
    for (const [oldest] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get bytes(): number {
    return this.total;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }
}
