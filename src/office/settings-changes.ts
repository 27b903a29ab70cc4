/**
 * What follows a change of the credentials, whoever made it: a key or address
 * written by the pane's forms, a test or any later writer, or a sign-in. Each
 * writer used to repeat these steps after its own save, and a writer that
 * forgot left the cache answering for the old key or the refresh feature still
 * asking the user to sign in. The runtime wires them once to the credentials'
 * one event (runtime.ts, commands.ts); the pane's tests wire them the same way,
 * to the settings store alone.
 */
import type { MarketDataClient } from "../api";
import type { CredentialsEvents } from "./credentials";

/**
 * Answers cached under the previous key or address may not be what the new one is entitled to, or serves. A sign-in
 * changes who may ask, not the answers: the cache stays (as the client's own settings check keeps it, settings-reader.ts).
 */
export function clearCacheOnSettingsChange(credentials: CredentialsEvents, client: Pick<MarketDataClient, "clear">) {
  return credentials.onChange((change) => {
    if (change.setting) client.clear();
  });
}

/**
 * On a key saved or removed the refresh feature reads the key again: "Sign in to refresh" goes once the user's own
 * key is set. It keeps its state (and the notice) if it cannot read the key, which says nothing about the save.
 */
export function recheckKeyOnSettingsChange(credentials: CredentialsEvents, refresh: { checkKey(): Promise<unknown> }) {
  return credentials.onChange((change) => {
    if (change.setting === "apiKey") void refresh.checkKey().catch(() => undefined);
  });
}
