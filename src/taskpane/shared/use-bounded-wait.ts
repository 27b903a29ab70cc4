/**
 * One service request tied to a component, as a bounded wait (bounded-wait.ts):
 * started when its inputs change, abandoned when they change again or the
 * component goes away (so a slow answer for an old selection never overwrites
 * a newer one), given up after WAIT_LIMIT_MS with a message naming the
 * address, and cancelled by the user (`cancel`). `<Waiting>` (waiting.tsx)
 * shows the wait; `retry` starts it again.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import {
  startBoundedWait,
  type BoundedWait,
  type BoundedWaitOptions,
  type PaneCall,
  type WaitCause,
  type WaitOutcome,
} from "./bounded-wait";
import { useServices } from "./pane-services";

export type WaitState<T> =
  | { status: "idle" }
  | { status: "loading"; since: number }
  | { status: "ready"; data: T }
  | { status: "error"; cause: WaitCause; message: string };

export function useBoundedWait<T>(
  run: ((call: PaneCall) => Promise<T>) | null,
  deps: readonly unknown[],
): WaitState<T> & { retry(): void; cancel(): void } {
  const [state, setState] = useState<WaitState<T>>({ status: "idle" });
  const [attempt, setAttempt] = useState(0);
  const current = useRef<BoundedWait | null>(null);
  const address = useServiceAddress();
  useEffect(() => {
    if (!run) {
      setState({ status: "idle" });
      return;
    }
    setState({ status: "loading", since: Date.now() });
    address.refresh();
    const wait = startBoundedWait(run, setState, { address: address.read });
    current.current = wait;
    return () => {
      wait.abandon();
      if (current.current === wait) current.current = null;
    };
    // `run` is rebuilt every render; the caller's deps say when it means something new.
  }, [...deps, attempt, run === null]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const cancel = useCallback(() => current.current?.cancel(), []);
  return { ...state, retry, cancel };
}

/** What an action's bounded wait may say instead of the service's defaults (a wait on the workbook). */
export type ActionWaitOptions = Pick<BoundedWaitOptions, "noAnswer" | "cancelled" | "limitMs">;

/**
 * A wait the user starts (Test connection, Insert a template, a scan of the workbook), bounded as
 * startBoundedWait's: `run` resolves with its outcome, or null when it was replaced by the next run or the
 * component went away (every run's promise settles). `since`: when the running one started, or null.
 */
export function useBoundedAction(options: ActionWaitOptions = {}) {
  const [since, setSince] = useState<number | null>(null);
  const running = useRef<{ wait: BoundedWait; abandon(): void } | null>(null);
  const address = useServiceAddress();
  useEffect(() => () => running.current?.abandon(), []);
  const run = useCallback(
    <T>(work: (call: PaneCall) => Promise<T>): Promise<WaitOutcome<T> | null> =>
      new Promise((resolve) => {
        running.current?.abandon();
        setSince(Date.now());
        address.refresh();
        const wait = startBoundedWait(
          work,
          (outcome) => {
            running.current = null;
            setSince(null);
            resolve(outcome);
          },
          { ...options, address: address.read },
        );
        running.current = {
          wait,
          abandon: () => {
            wait.abandon();
            resolve(null);
          },
        };
      }),
    // The options are the caller's constants.
    [address],
  );
  const cancel = useCallback(() => running.current?.wait.cancel(), []);
  return { since, run, cancel };
}

export interface ServiceAddress {
  /** The address as last read, or undefined: no read has answered yet. */
  read(): string | undefined;
  /** Reads the settings again (a wait starting: a changed base URL shows in its message). */
  refresh(): void;
}

/**
 * The service's address, for a wait's message. Never waited for: until a read answers (or if it never does)
 * the message names "the market-data service".
 */
export function useServiceAddress(): ServiceAddress {
  const { settings } = useServices();
  const known = useRef<string | undefined>(undefined);
  const [address] = useState<ServiceAddress>(() => ({
    read: () => known.current,
    refresh: () =>
      void settings.read().then(
        (read) => (known.current = read.baseUrl),
        () => undefined,
      ),
  }));
  return address;
}
