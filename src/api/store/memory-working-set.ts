/**
 * The persistent series store's memory working set (persistent-store.ts is the
 * store): the records of the session, least recently used first, capped in
 * bytes. It answers reads without touching IndexedDB, and is all of the store
 * when IndexedDB is unavailable.
 */
import type { MemoryEntry } from "./types";

export class MemoryWorkingSet {
  private readonly entries = new Map<string, MemoryEntry>();
  /** Bytes held. */
  bytes = 0;

  constructor(readonly maxBytes: number) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The entry, now the most recently used one. */
  get(key: string): MemoryEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps `entry` (unless it alone exceeds the cap), dropping the least recently used beyond the cap. */
  set(key: string, entry: MemoryEntry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Series held. */
  seriesCount(): number {
    let series = 0;
    for (const entry of this.entries.values()) if (entry.kind === "series") series += 1;
    return series;
  }
}
