import { createClient, openSeriesStore, type MarketDataClient } from "../api";
import { BUILD_INFO } from "./build-info";
import { CallTracker } from "./call-tracker";
import { GatewayProbe } from "./gateway";
import { dateSystemOfWorkbook } from "./date-system";
import { findRuntime, registerRuntime, type MarketDataRuntime } from "./runtime-registry";
import { defaultStorage, SettingsStore } from "./settings";
import { clearCacheOnSettingsChange } from "./settings-changes";

export type { MarketDataRuntime } from "./runtime-registry";

/** The page's shared runtime, created on first use (functions.js creates it as it loads). */
export function getRuntime(): MarketDataRuntime {
  const existing = findRuntime();
  if (existing) return existing;
  const gateway = new GatewayProbe();
  const settings = new SettingsStore(
    defaultStorage(),
    { baseUrl: BUILD_INFO.defaultBaseUrl, apiKey: BUILD_INFO.defaultApiKey },
    (baseUrl) => gateway.keyMode(baseUrl),
  );
  // Warm workbooks: series and catalogs kept in the webview's IndexedDB (memory only where it is missing or fails).
  const client = createClient({ settings: () => settings.read(), store: openSeriesStore() });
  clearCacheOnSettingsChange(settings, client);
  return registerRuntime({
    client,
    settings,
    calls: new CallTracker(),
    dateSystem: dateSystemOfWorkbook(),
    version: BUILD_INFO.version,
  });
}

export function getClient(): MarketDataClient {
  return getRuntime().client;
}
