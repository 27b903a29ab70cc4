/**
 * Watches a test for the warnings that mean a test or the code under it is
 * wrong, so they fail the test instead of scrolling past in the output:
 * - React's "An update to X inside a test was not wrapped in act(...)": the
 *   test ended (or moved on) while a component was still updating after a
 *   promise; the test should await what it triggered (findBy…, waitFor,
 *   `await act(async …)`).
 * - Node's MaxListenersExceededWarning: an EventEmitter or EventTarget (an
 *   AbortSignal) gaining a listener per call that nobody removes; and any
 *   other warning Node emits (a DeprecationWarning, one from
 *   `process.emitWarning`).
 * Nothing is silenced: React's message still goes to the console and Node
 * still prints its warning; the watch only records them.
 *
 * Node emits its warnings on the real `process`; jest hands each test file a
 * copy, whose `on()` never hears them, so the watch listens on the real one
 * (`process.getBuiltinModule("process")`, Node ≥ 20.16).
 */
import type { EventEmitter } from "node:events";
import { format } from "node:util";

const ACT_WARNING = /not wrapped in act\(|not configured to support act\(/;

export interface WarningWatch {
  /** The warnings seen since the last `take()`, and forgets them. */
  take(): string[];
  /** Stops watching (restores console.error, removes the process listener). */
  stop(): void;
}

function realProcess(): EventEmitter {
  const builtin = (process as unknown as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (builtin?.("process") as EventEmitter | undefined) ?? process;
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}

export function watchWarnings(): WarningWatch {
  const seen: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    // React passes a %s template and its parts, as console.error formats them.
    const text = format(...args);
    if (ACT_WARNING.test(text)) seen.push(`React act() warning: ${firstLine(text)}`);
    consoleError.apply(console, args);
  };
  const onWarning = (warning: Error) => {
    seen.push(`${warning.name}: ${firstLine(warning.message)}`);
  };
  const node = realProcess();
  node.on("warning", onWarning);
  return {
    take: () => seen.splice(0),
    stop() {
      console.error = consoleError;
      node.off("warning", onWarning);
    },
  };
}
