/**
 * A fake IndexedDB (fake-indexeddb) answering its reads as a busy computer's
 * does: the page's thread is free (its timers fire on time) while IndexedDB,
 * which in a browser runs in its own process and threads, answers each read
 * request late, in proportion to what it reads (`msPerRequest` plus
 * `msPerKb` for each kilobyte of the records it returns, as JSON). Writes
 * are not slowed. An Infinity delay is a read that never answers (stuck).
 * Used by the busy-computer test (test/api/client-store-busy.test.ts) and
 * bench/reopen.ts --busy N --slow-idb.
 *
 * IndexedDB only lets a transaction take new requests while one of its
 * events is dispatched, so a late answer is handed over from inside the
 * success event of a no-op request (a count) that keeps the transaction
 * active until every late answer of it has been handed over; a transaction
 * holding an answer that never comes never completes.
 */
import { overriding, wrappingOpen } from "./idb-proxy";

type Handler = ((this: IDBRequest, ev: Event) => unknown) | null;

export interface SlowReads {
  msPerRequest: number;
  msPerKb: number;
  /** The clock the delays are measured on; default Date.now. */
  now?: () => number;
}

export function slowReads(factory: IDBFactory, o: SlowReads): IDBFactory {
  const now = o.now ?? Date.now;
  const cost = (result: unknown) => o.msPerRequest + o.msPerKb * (JSON.stringify(result ?? null).length / 1024);

  const wrapTx = (tx: IDBTransaction): IDBTransaction => {
    const held: { due: number; deliver: () => void }[] = [];
    let spinning = false;
    /** Keeps the transaction active, handing each late answer over once it is due. */
    const spin = (store: IDBObjectStore) => {
      const tick = store.count();
      tick.onsuccess = () => {
        const at = now();
        for (const late of held.filter((h) => h.due <= at)) {
          held.splice(held.indexOf(late), 1);
          late.deliver();
        }
        if (held.some((h) => Number.isFinite(h.due))) spin(store);
        else spinning = false;
      };
    };
    const slowRequest = (store: IDBObjectStore, real: IDBRequest): IDBRequest => {
      const request = {
        onsuccess: null as Handler,
        onerror: null as Handler,
        get result() {
          return real.result as unknown;
        },
        get error() {
          return real.error;
        },
      };
      real.onsuccess = (event) => {
        held.push({ due: now() + cost(real.result), deliver: () => request.onsuccess?.call(real, event) });
        if (!spinning && Number.isFinite(held[held.length - 1]!.due)) {
          spinning = true;
          spin(store);
        }
      };
      real.onerror = (event) => request.onerror?.call(real, event);
      return request as unknown as IDBRequest;
    };
    const wrapStore = (store: IDBObjectStore): IDBObjectStore =>
      overriding(store, (prop) =>
        prop === "get" || prop === "getAll"
          ? (...args: unknown[]) =>
              slowRequest(store, (store[prop] as (...a: unknown[]) => IDBRequest).apply(store, args))
          : undefined,
      );
    return overriding(
      tx,
      (prop) => (prop === "objectStore" ? (name: string) => wrapStore(tx.objectStore(name)) : undefined),
      (prop, value) =>
        // A transaction with a read that never answers never completes either.
        prop === "oncomplete"
          ? Reflect.set(tx, prop, (event: Event) => held.length === 0 && (value as Handler)?.call(tx as never, event))
          : Reflect.set(tx, prop, value, tx),
    );
  };

  const wrapDb = (db: IDBDatabase) =>
    overriding(db, (prop) =>
      prop === "transaction"
        ? (names: string | string[], mode?: IDBTransactionMode) => {
            const tx = db.transaction(names, mode);
            return mode === "readwrite" ? tx : wrapTx(tx);
          }
        : undefined,
    );
  return wrappingOpen(factory, wrapDb);
}
