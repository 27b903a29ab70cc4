/**
 * One service request tied to a component: started when its inputs change,
 * aborted when they change again or the component goes away, so a slow answer
 * for an old selection never overwrites a newer one.
 */
import { useCallback, useEffect, useState } from "react";
import { errorText, isCancellation } from "./error-text";

export type RequestState<T> =
  { status: "idle" } | { status: "loading" } | { status: "ready"; data: T } | { status: "error"; message: string };

export function useRequest<T>(
  run: ((signal: AbortSignal) => Promise<T>) | null,
  deps: readonly unknown[],
): RequestState<T> & { retry(): void } {
  const [state, setState] = useState<RequestState<T>>({ status: "idle" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!run) {
      setState({ status: "idle" });
      return;
    }
    const controller = new AbortController();
    setState({ status: "loading" });
    run(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: "ready", data });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isCancellation(error)) return;
        setState({ status: "error", message: errorText(error) });
      },
    );
    return () => controller.abort();
    // `run` is rebuilt every render; the caller's deps say when it means something new.
  }, [...deps, attempt, run === null]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
