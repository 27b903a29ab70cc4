/**
 * The handle a `use…()` set-up returns at a suite's top level: the world it
 * stands for starts in a beforeAll, so at declaration time there is nothing
 * to return yet. The stand-in forwards every read to the world once it has
 * started, and says which set-up is missing when a test reaches it too early
 * (in a describe block the hooks of which did not run).
 */
export function lateBound<T extends object>(what: string, current: () => T | undefined): T {
  const target = (): T => {
    const value = current();
    if (value === undefined) throw new Error(`${what} is not started yet: use it inside a test or a later hook`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const world = target();
      const value = Reflect.get(world, property, world) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(world) : value;
    },
    set(_, property, value) {
      return Reflect.set(target(), property, value);
    },
    has: (_, property) => Reflect.has(target(), property),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor(_, property) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), property);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
