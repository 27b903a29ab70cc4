import { createClient, openSeriesStore, type MarketDataClient } from "../api";
import { AccessTokens } from "./sign-in/access-tokens";
import { BUILD_INFO } from "./build-info";
import { CallTracker } from "./call-tracker";
import { CallRecords } from "./call-records";
import { Credentials } from "./credentials";
import { GatewayProbe } from "./sign-in/gateway";
import { dateSystemOfWorkbook } from "./cells/date-system";
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
    (baseUrl) => gateway.describe(baseUrl),
  );
  // Tokens come from the pane's sign-in (src/office/sign-in/sign-in.ts) through this holder: the client never sees MSAL.
  const accessTokens = new AccessTokens();
  // The key, the gateway's modes and the sign-in, with one change event, reach the client on one channel.
  const credentials = new Credentials(settings, accessTokens);
  // Warm workbooks: series and catalogs kept in the webview's IndexedDB (memory only where it is missing or fails).
  const client = createClient({ credentials: credentials.forClient(), store: openSeriesStore() });
  clearCacheOnSettingsChange(credentials, client);
  return registerRuntime({
    client,
    settings,
    accessTokens,
    credentials,
    calls: new CallTracker(),
    records: new CallRecords(() => client.answers),
    dateSystem: dateSystemOfWorkbook(),
    version: BUILD_INFO.version,
  });
}

export function getClient(): MarketDataClient {
  return getRuntime().client;
}
