/**
 * The persistent series store's write queue (persistent-store.ts is the store and
 * schedules the writes): the answers recorded and the keys used since the last
 * write transaction, gathered by key so that one transaction carries them all,
 * and put back in order when IndexedDB was not open yet.
 */
import { MAX_WAITING_WRITES, type AnswerRecord, type PendingWrite, type SeriesId, type FetchedRange } from "./types";

export class WriteQueue {
  private writes = new Map<string, PendingWrite>();
  private touched = new Set<string>();

  /** Whether anything waits to be written. */
  waiting(): boolean {
    return this.writes.size > 0 || this.touched.size > 0;
  }

  /** Adds an answer for a series, merged into the stored series when written. */
  addSeries(key: string, id: SeriesId, fetched: FetchedRange): void {
    const pending = this.writes.get(key) ?? { kind: "series" as const, id, ops: [] };
    pending.ops.push(fetched);
    this.writes.set(key, pending);
  }

  addAnswer(answer: AnswerRecord): void {
    this.writes.set(answer.key, { kind: "answer", ops: [], answer });
  }

  /** Remembers a use, for the least-recently-used order kept in IndexedDB. */
  touch(key: string): void {
    this.touched.add(key);
  }

  /** Everything waiting, for one transaction; the queue starts afresh. */
  take(): { batch: Map<string, PendingWrite>; touched: Set<string> } {
    const taken = { batch: this.writes, touched: this.touched };
    this.writes = new Map();
    this.touched = new Set();
    return taken;
  }

  /**
   * Puts a batch back in front of whatever was queued since; false (and the
   * batch dropped) when that would hold more than MAX_WAITING_WRITES.
   */
  requeue(batch: Map<string, PendingWrite>, touched: Set<string>): boolean {
    if (batch.size + this.writes.size > MAX_WAITING_WRITES) return false;
    for (const [key, newer] of this.writes) {
      const older = batch.get(key);
      if (older && newer.kind === "series") batch.set(key, { ...newer, ops: [...older.ops, ...newer.ops] });
      else batch.set(key, newer);
    }
    this.writes = batch;
    for (const key of touched) this.touched.add(key);
    return true;
  }

  /** Drops the writes waiting (the uses too, with `andUses`). */
  clear(andUses: boolean): void {
    this.writes.clear();
    if (andUses) this.touched.clear();
  }
}
