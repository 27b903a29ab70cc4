/**
 * What every `use…()` set-up of a world that runs (a server, a browser, a
 * child process) does: start it in a beforeAll of the suite or describe block
 * it is called in (in the order of the block's other hooks), close it in an
 * afterAll, and hand back a late-bound handle (late-bound.ts) that reads it
 * once started. In-memory worlds (a fake IndexedDB, the workbook stand-in)
 * have nothing to close and need none of this.
 */
import { lateBound } from "./late-bound";

/** `timeoutMs`: the beforeAll's, for worlds slower to start than jest's default allows (unset: the default). */
export function useWorld<T extends { close(): Promise<void> }>(
  what: string,
  start: () => Promise<T>,
  timeoutMs?: number,
): T {
  let world: T | undefined;
  beforeAll(async () => {
    world = await start();
  }, timeoutMs);
  afterAll(async () => {
    await world?.close();
    world = undefined;
  });
  return lateBound(what, () => world);
}
