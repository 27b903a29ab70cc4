/**
 * What follows a change of the settings, whoever wrote it: the pane's forms,
 * a test, any later writer. Each writer used to repeat these steps after its
 * own save, and a writer that forgot left the cache answering for the old key
 * or the refresh feature still asking the user to sign in. The runtime wires
 * them once (runtime.ts, commands.ts); the pane's tests wire them the same way.
 */
import type { MarketDataClient } from "../api";
import type { SettingsStore } from "./settings";

type SettingsChanges = Pick<SettingsStore, "onChange">;

/** Answers cached under the previous key or address may not be what the new one is entitled to, or serves. */
export function clearCacheOnSettingsChange(settings: SettingsChanges, client: Pick<MarketDataClient, "clear">) {
  return settings.onChange(() => client.clear());
}

/**
 * On a key saved or removed the refresh feature reads the key again: "Sign in to refresh" goes once the user's own
 * key is set. It keeps its state (and the notice) if it cannot read the key, which says nothing about the save.
 */
export function recheckKeyOnSettingsChange(settings: SettingsChanges, refresh: { checkKey(): Promise<unknown> }) {
  return settings.onChange((change) => {
    if (change.setting === "apiKey") void refresh.checkKey().catch(() => undefined);
  });
}
