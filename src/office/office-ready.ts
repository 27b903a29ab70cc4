/**
 * Waiting for Office before touching what its host scripts define
 * (`OfficeRuntime`, `Excel`'s request context): functions.js runs before
 * office.js has loaded them. Bounded, so a page where Office never answers
 * still goes on; outside Office (no `Office.onReady`) there is nothing to wait for.
 */
export interface OfficeReadyGlobals {
  Office?: { onReady?: () => Promise<unknown> };
}

/** Resolves true once Office is ready (or there is no Office to wait for), false when `timeoutMs` passed first. */
export async function officeReady(globals: OfficeReadyGlobals, timeoutMs: number): Promise<boolean> {
  const onReady = globals.Office?.onReady;
  if (typeof onReady !== "function") return true;
  return withTimeout(
    Promise.resolve(onReady.call(globals.Office)).then(
      () => true,
      () => true, // Office answered, with an error: nothing more will come of waiting
    ),
    timeoutMs,
    false,
  );
}

/** `work`'s result, or `fallback` once `timeoutMs` has passed (the timer is cleared either way). */
export async function withTimeout<T, F>(work: Promise<T>, timeoutMs: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), timeoutMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
