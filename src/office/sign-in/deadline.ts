/** The identity provider's time limits, in one place: past the deadline a wait fails as `provider_unreachable`. */

/** A failure the pane says as "the sign-in service did not answer" (failures.ts). */
export function providerUnreachable(): Error {
  return Object.assign(new Error("no answer"), { errorCode: "provider_unreachable" });
}

/** `work`, or a `provider_unreachable` failure once `ms` pass first (`onLate` runs then: abort what is pending). */
export function withinDeadline<T>(work: Promise<T>, ms: number, onLate?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(providerUnreachable());
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
