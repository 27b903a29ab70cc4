/**
 * The fake IndexedDB world: fake-indexeddb's in-memory IndexedDB, one new
 * empty database world per call. `freshIndexedDb()` is the one way tests make
 * one; pass it as openSeriesStore's `indexedDB`, and pass the same one to a
 * second store to see what the first left behind (a reload, the next day).
 * It lives in memory and is dropped with the test, so it needs no teardown;
 * the stores opened on it are closed by the test or its suite's afterEach
 * (a store's pending writes are its own, not the database's). To make it fail
 * as a browser's can, wrap it: `failing(freshIndexedDb(), …)` (failing-idb.ts).
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";

export function freshIndexedDb(): IDBFactory {
  // A browser's IndexedDB comes with IDBKeyRange beside it (the store reads many records a page at a time with it).
  (globalThis as { IDBKeyRange?: unknown }).IDBKeyRange ??= IDBKeyRange;
  return new IDBFactory();
}
