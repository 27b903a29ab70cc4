import { createClient } from "../api/client";
import type { MarketDataClient } from "../api/types";
import { BUILD_INFO } from "./build-info";
import { defaultStorage, SettingsStore } from "./settings";

/**
 * One client, one cache and one settings store per JavaScript runtime.
 *
 * In the shared runtime the functions bundle and the task-pane bundle run in
 * the same page but are separate webpack entries, so a module-level singleton
 * would exist twice. The runtime therefore lives on `globalThis` under a
 * registry symbol: whichever bundle asks first creates it (functions.js, which
 * the page loads first), and the pane finds the same instance.
 */
export interface MarketDataRuntime {
  client: MarketDataClient;
  settings: SettingsStore;
  version: string;
}

const RUNTIME_KEY = Symbol.for("market-data.runtime");

export function getRuntime(): MarketDataRuntime {
  const registry = globalThis as unknown as Record<symbol, MarketDataRuntime | undefined>;
  let runtime = registry[RUNTIME_KEY];
  if (!runtime) {
    const settings = new SettingsStore(defaultStorage(), {
      baseUrl: BUILD_INFO.defaultBaseUrl,
      apiKey: BUILD_INFO.defaultApiKey,
    });
    const client = createClient({ settings: () => settings.read() });
    runtime = { client, settings, version: BUILD_INFO.version };
    registry[RUNTIME_KEY] = runtime;
  }
  return runtime;
}

export function getClient(): MarketDataClient {
  return getRuntime().client;
}
