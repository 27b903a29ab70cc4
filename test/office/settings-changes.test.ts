/** The settings store publishes every write, whoever makes it. */
import { SETTING_KEYS, SettingsStore, type KeyValueStorage, type SettingsChange } from "../../src/office/settings";

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: async (key) => data.get(key) ?? null,
    setItem: async (key, value) => void data.set(key, value),
    removeItem: async (key) => void data.delete(key),
  };
}

describe("the settings store publishes each write", () => {
  it.each<{ write: string; run: (store: SettingsStore) => Promise<void>; change: SettingsChange; stored: object }>([
    {
      write: "a key pasted with spaces",
      run: (s) => s.setApiKey("  md-user-key\n"),
      change: { setting: "apiKey" },
      stored: { [SETTING_KEYS.apiKey]: "md-user-key" },
    },
    { write: "the key removed", run: (s) => s.setApiKey("   "), change: { setting: "apiKey" }, stored: {} },
    {
      write: "a service address",
      run: (s) => s.setBaseUrl(" https://md.example.com/ "),
      change: { setting: "baseUrl" },
      stored: { [SETTING_KEYS.baseUrl]: "https://md.example.com" },
    },
    { write: "the default address", run: (s) => s.setBaseUrl(""), change: { setting: "baseUrl" }, stored: {} },
  ])("$write: stored as the store writes it, then published", async ({ run, change, stored }) => {
    const storage = memoryStorage();
    const store = new SettingsStore(storage, { apiKey: "", baseUrl: "" });
    const heard: { change: SettingsChange; storedThen: object }[] = [];
    store.onChange((c) => heard.push({ change: c, storedThen: Object.fromEntries(storage.data) }));
    await run(store);
    expect(heard).toEqual([{ change, storedThen: stored }]);
  });

  it("a write storage refuses is not published; an unsubscribed listener hears nothing", async () => {
    const storage = memoryStorage();
    const store = new SettingsStore(storage, { apiKey: "", baseUrl: "" });
    const heard: SettingsChange[] = [];
    const stop = store.onChange((c) => heard.push(c));
    storage.setItem = async () => {
      throw new Error("storage is unavailable");
    };
    await expect(store.setApiKey("k")).rejects.toThrow("storage is unavailable");
    expect(heard).toEqual([]);
    stop();
    await store.setApiKey("");
    expect(heard).toEqual([]);
  });

  it("every listener hears the change even if one fails, and the write reports that failure", async () => {
    const store = new SettingsStore(memoryStorage(), { apiKey: "", baseUrl: "" });
    const heard: string[] = [];
    store.onChange(() => {
      throw new Error("listener failed");
    });
    store.onChange((c) => heard.push(c.setting));
    await expect(store.setApiKey("k")).rejects.toThrow("listener failed");
    expect(heard).toEqual(["apiKey"]);
  });
});
