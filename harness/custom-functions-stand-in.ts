/**
 * A stand-in for Excel's `CustomFunctions` global (Error and ErrorCode), for
 * code that runs the cell frame (src/functions/invoke.ts) outside Excel: the
 * benchmark's cells (bench/hostile.ts) and the function tests. Installed once; an existing global is kept.
 */
import { ErrorCode } from "./bundle";

export class StandInError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export function installCustomFunctionsStandIn(): void {
  const global = globalThis as Record<string, unknown>;
  if (global.CustomFunctions) return;
  global.CustomFunctions = {
    Error: StandInError,
    ErrorCode,
  };
}
