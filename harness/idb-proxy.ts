/**
 * IndexedDB objects seen through a Proxy, for the fake IndexedDBs that fail
 * or answer late as a browser's can (test/support/failing-idb.ts,
 * harness/slow-idb.ts): the properties a wrapper replaces, and the rest the
 * object's own (methods bound to it, assignments made on it).
 */
export function overriding<T extends object>(
  target: T,
  replaced: (prop: string | symbol) => unknown,
  assign: (prop: string | symbol, value: unknown) => boolean = (prop, value) =>
    Reflect.set(target, prop, value, target),
): T {
  return new Proxy(target, {
    get(t, prop) {
      const own = replaced(prop);
      if (own !== undefined) return own;
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
    set: (_t, prop, value) => assign(prop, value),
  });
}

/** A factory whose opened databases are seen through `wrapDb`; `open` may answer instead (undefined: it opens). */
export function wrappingOpen(
  factory: IDBFactory,
  wrapDb: (db: IDBDatabase) => IDBDatabase,
  open: () => IDBOpenDBRequest | undefined = () => undefined,
): IDBFactory {
  return overriding(factory, (prop) =>
    prop !== "open"
      ? undefined
      : (name: string, version?: number) => {
          const instead = open();
          if (instead) return instead;
          const request = factory.open(name, version);
          return overriding(request, (p) => (p === "result" ? wrapDb(request.result) : undefined));
        },
  );
}
