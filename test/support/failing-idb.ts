/**
 * A fake IndexedDB (fake-indexeddb) that fails the way a browser's can:
 * refusing to open (private windows), never opening, the quota on writes, a
 * closing connection, failing reads; and a dump of the store's records.
 */
import { STORE_DB_NAME, STORE_DB_VERSION } from "../../src/api/store/types";
import { overriding, wrappingOpen } from "../../harness/idb-proxy";

/** Wraps a fake IndexedDB so that opening, reading or writing fails as a browser's can. */
export function failing(
  factory: IDBFactory,
  how: { open?: "throw" | "hang"; writes?: "quota" | "error" | "quota-once"; reads?: boolean },
): IDBFactory {
  let quotaFailures = 0;
  const wrapDb = (db: IDBDatabase) =>
    overriding(db, (prop) =>
      prop !== "transaction"
        ? undefined
        : (names: string | string[], mode?: IDBTransactionMode) => {
            if (mode === "readwrite" && how.writes) {
              const quota = how.writes === "quota" || (how.writes === "quota-once" && quotaFailures++ === 0);
              if (quota) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
              if (how.writes === "error")
                throw new DOMException("The database connection is closing.", "InvalidStateError");
            }
            if (mode !== "readwrite" && how.reads && !(Array.isArray(names) ? names : [names]).includes("usage"))
              throw new DOMException("Read failed", "UnknownError");
            return db.transaction(names, mode);
          },
    );
  return wrappingOpen(factory, wrapDb, () => {
    if (how.open === "throw") throw new DOMException("The operation is insecure.", "SecurityError");
    if (how.open === "hang") return {} as IDBOpenDBRequest; // never calls back
    return undefined;
  });
}

/** Every record of the add-in's store, as JSON text: for looking for what must never be stored (the key). */
export async function dumpStore(factory: IDBFactory): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(STORE_DB_NAME, STORE_DB_VERSION);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const names = Array.from(db.objectStoreNames);
  const tx = db.transaction(names, "readonly");
  const all = await Promise.all(
    names.map(
      (name) =>
        new Promise<unknown[]>((resolve) => {
          const request = tx.objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result as unknown[]);
        }),
    ),
  );
  db.close();
  return JSON.stringify(all);
}
