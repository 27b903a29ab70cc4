/**
 * When the persistent store stands in for the service (DESIGN "Persistent
 * cache", offline): the failures that mean the service cannot be reached, as
 * against the service refusing.
 */
import { isMarketDataError } from "../errors";

/** Errors that mean "the service cannot be reached", not "the service refused". */
export function isUnreachable(error: unknown): boolean {
  return isMarketDataError(error) && (error.kind === "network" || error.kind === "timeout" || error.kind === "server");
}
