import type { MarketDataClient } from "../api";
import type { DateSystem } from "../core/excel-date";
import type { AccessTokens } from "./sign-in/access-tokens";
import type { CallTracker } from "./call-tracker";
import type { CallRecords } from "./call-records";
import type { Credentials } from "./credentials";
import type { SettingsStore } from "./settings";

/**
 * Where the shared runtime lives: one client, one cache and one settings store
 * per JavaScript context, kept on `globalThis` under a registry symbol.
 *
 * functions.js and taskpane.js are separate webpack entries running in the same
 * page, so a module-level singleton would exist once per bundle. functions.js
 * creates the runtime as it loads (src/office/runtime.ts); the pane and the
 * ribbon commands only look it up here, which also keeps the client's code out
 * of the pane's bundles.
 */
export interface MarketDataRuntime {
  client: MarketDataClient;
  settings: SettingsStore;
  /** The signed-in user's access tokens for a gateway that asks for them; filled by the pane's sign-in (absent in stand-ins). */
  accessTokens?: AccessTokens;
  /** How requests are authorised now, with one change event (src/office/credentials.ts); absent in stand-ins (`credentialsOf` makes one). */
  credentials?: Credentials;
  /** Every MD function call, counted as it starts and settles (src/functions/invoke.ts). */
  calls: CallTracker;
  /** What answered each MD call (src/office/call-records.ts); absent in stand-ins that build a runtime by hand. */
  records?: CallRecords;
  /** The workbook's date system, asked of Excel once (src/office/cells/date-system.ts). */
  dateSystem(): Promise<DateSystem>;
  version: string;
}

export const RUNTIME_KEY = Symbol.for("market-data.runtime");

type Registry = Record<symbol, MarketDataRuntime | undefined>;

export function findRuntime(): MarketDataRuntime | undefined {
  return (globalThis as unknown as Registry)[RUNTIME_KEY];
}

export function registerRuntime(runtime: MarketDataRuntime): MarketDataRuntime {
  (globalThis as unknown as Registry)[RUNTIME_KEY] = runtime;
  return runtime;
}

/** The runtime functions.js created; the page loads functions.js before the pane. */
export function sharedRuntime(): MarketDataRuntime {
  const runtime = findRuntime();
  if (!runtime)
    throw new Error("The Market Data functions did not load (functions.js), so the pane has no client to use.");
  return runtime;
}
