/**
 * The sentence a view shows for a failure. The client's errors already carry
 * user-facing messages without the key; the pane still redacts whatever it
 * shows, because an unexpected error (a bug, a browser message) was not
 * written with the key in mind.
 *
 * Errors are recognised by shape, not `instanceof`: the client is created by
 * functions.js, a separate bundle with its own copy of the error classes.
 */
import { redact } from "../../api";

interface KindedError {
  kind: string;
  message: string;
}

function isKinded(value: unknown): value is KindedError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as KindedError).kind === "string" &&
    typeof (value as KindedError).message === "string"
  );
}

export function isCancellation(error: unknown): boolean {
  if (isKinded(error) && error.kind === "cancelled") return true;
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

export function errorText(error: unknown, apiKey?: string): string {
  let text: string;
  if (isKinded(error)) text = error.message;
  else if (error instanceof Error && error.message) text = error.message;
  else if (typeof error === "string" && error) text = error;
  else text = "Something went wrong.";
  return redact(text, apiKey);
}
