/**
 * The persistent series store's connection to IndexedDB (persistent-store.ts
 * is the store): opening it, the one bounded wait for the open, and the fall
 * to memory only (IndexedDB missing, refusing, failing, taken over by a newer
 * version of the add-in, closed), with the reason kept for the pane.
 */
import type { Timers } from "../http/timers";
import { readDeadline } from "./read-deadline";
import { errorText, formatMb } from "./types";
import { openDatabase } from "./indexeddb-requests";

export interface ConnectionOptions {
  /** Null: memory only from the start. */
  factory: IDBFactory | null;
  name: string;
  timers: Timers;
  now: () => number;
  /** IndexedDB's answers so far, and one more: the open wait is judged by them (read-deadline.ts). */
  answers: () => number;
  answered: () => void;
  /** The store's bounded waits, given up all at once when it closes. */
  waits: Set<() => void>;
  openWaitMs: number;
  log: (line: string) => void;
  /** What the store does with the database before answering from it (a clear asked before it opened; measuring it). */
  prepare: (db: IDBDatabase) => Promise<void>;
  /** What the store holds once open, for the log line. */
  held: () => { series: number; bytes: number };
  /** The store went memory only: what waited to be written is dropped. */
  lost: () => void;
}

export class IndexedDbConnection {
  /** The database, once open and prepared; null before and once memory only. */
  db: IDBDatabase | null = null;
  /** Why the store is memory only, once it is. */
  memoryOnly: string | null = null;
  private opening: Promise<IDBDatabase | null> | null = null;
  /** Resolves when the one bounded wait for the open has passed (or the open ended). */
  private openWait: Promise<void> | null = null;
  private rebuilt = false;

  constructor(private readonly o: ConnectionOptions) {
    if (!o.factory) this.memoryOnly = "IndexedDB is not available here";
  }

  /**
   * The database, once open. Reads wait for the open a bounded time, once
   * per session: while IndexedDB is still answering (the open, each page of
   * the usage rows measured), and until it has answered nothing for
   * `openWaitMs` (read-deadline.ts); after that they go on without it until
   * it has opened. Writes made meanwhile wait in memory; a clear is done on
   * opening.
   */
  async openBounded(): Promise<IDBDatabase | null> {
    if (this.db) return this.db;
    if (this.memoryOnly) return null;
    this.openWait ??= this.waitForOpen(this.open());
    await this.openWait;
    return this.db;
  }

  private waitForOpen(opening: Promise<IDBDatabase | null>): Promise<void> {
    const { timers, now, waits, openWaitMs, answers } = this.o;
    return new Promise<void>((resolve) => {
      const done = () => {
        waits.delete(giveUp);
        deadline.cancel();
        resolve();
      };
      const giveUp = () => {
        if (!this.db && !this.memoryOnly)
          this.o.log(
            `IndexedDB answered nothing for over ${openWaitMs} ms while opening; answering from memory meanwhile`,
          );
        done();
      };
      const deadline = readDeadline(timers, now, openWaitMs, answers, giveUp);
      waits.add(giveUp);
      void opening.then(done);
    });
  }

  open(): Promise<IDBDatabase | null> {
    return (this.opening ??= openDatabase(this.o.factory!, this.o.name, {
      log: this.o.log,
      fail: (why) => this.toMemoryOnly(why),
      rebuildOnce: () => !this.rebuilt && (this.rebuilt = true),
      reopen: () => {
        this.opening = null;
        return this.open();
      },
      opened: (db, resolve, fail) => {
        this.o.answered();
        db.onversionchange = () => {
          db.close();
          this.toMemoryOnly("a newer version of the add-in took over the store");
        };
        db.onclose = () => this.toMemoryOnly("the browser closed the store");
        this.o.prepare(db).then(
          () => {
            if (this.memoryOnly) {
              db.close();
              resolve(null);
              return;
            }
            this.db = db;
            const held = this.o.held();
            this.o.log(`opened: ${held.series} series, ${formatMb(held.bytes)}`);
            resolve(db);
          },
          (error: unknown) => {
            db.close();
            fail(`IndexedDB could not be read (${errorText(error)})`);
          },
        );
      },
    }));
  }

  toMemoryOnly(reason: string): void {
    if (this.memoryOnly) return;
    this.memoryOnly = reason;
    this.o.log(`memory only from now on: ${reason}`);
    const db = this.db;
    this.db = null;
    this.o.lost();
    try {
      db?.close();
    } catch {
      // Already closed.
    }
  }
}
