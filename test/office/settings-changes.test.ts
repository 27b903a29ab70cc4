/**
 * A settings change reaches the client and the refresh feature whoever writes
 * it: the store publishes every write, and the runtime wires the client's cache
 * and the refresh controller to it. Here the key is written through the
 * runtime's settings store alone — no pane, no view.
 */
import { getRefreshController } from "../../src/office/commands";
import { getRuntime } from "../../src/office/runtime";
import {
  SETTING_KEYS,
  SettingsStore,
  type KeyValueStorage,
  type SettingsChange,
  type StoredSettings,
} from "../../src/office/settings";
import { REFRESH_ON_OPEN_SETTING } from "../../src/refresh/refresh-on-open";
import { compsWorkbook, OPENED_WITH_DOCUMENT } from "../support/recordings";
import { installWorkbookStandIn } from "../support/workbook-stand-in";

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
    await expect(store.setApiKey("key-12345")).rejects.toThrow("storage is unavailable");
    expect(heard).toEqual([]);
    stop();
    await store.setApiKey("");
    expect(heard).toEqual([]);
  });

  it.each(["k", "1234567", "  abcdefg  "])(
    "a key shorter than 8 characters (%j) is refused, not stored, not published",
    async (short) => {
      const storage = memoryStorage();
      const store = new SettingsStore(storage, { apiKey: "", baseUrl: "" });
      const heard: SettingsChange[] = [];
      store.onChange((c) => heard.push(c));
      await expect(store.setApiKey(short)).rejects.toThrow(
        `An API key has at least 8 characters; this one has ${short.trim().length}.`,
      );
      expect(storage.data.size).toBe(0);
      expect(heard).toEqual([]);
      await store.setApiKey("12345678");
      expect(storage.data.get(SETTING_KEYS.apiKey)).toBe("12345678");
    },
  );

  it("every listener hears the change even if one fails, and the write reports that failure", async () => {
    const store = new SettingsStore(memoryStorage(), { apiKey: "", baseUrl: "" });
    const heard: string[] = [];
    store.onChange(() => {
      throw new Error("listener failed");
    });
    store.onChange((c) => heard.push(c.setting));
    await expect(store.setApiKey("key-12345")).rejects.toThrow("listener failed");
    expect(heard).toEqual(["apiKey"]);
  });
});

describe("the runtime wires the client and the refresh feature to the store", () => {
  afterAll(() => {
    const globals = globalThis as Record<string, unknown>;
    delete globals.Excel;
    delete globals.Office;
  });

  it("a key written through the store alone clears the client's cache and lifts “Sign in to refresh”", async () => {
    // A workbook set to refresh on open, opened with no key at all: the refresh feature asks the user to sign in.
    installWorkbookStandIn(globalThis as Record<string, unknown>, {
      ...compsWorkbook().recording,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
    });
    const runtime = getRuntime();
    const controller = getRefreshController();
    expect(await controller.runOnOpen(OPENED_WITH_DOCUMENT)).toBeNull();
    expect(controller.getState()).toMatchObject({ signInRequired: true, keyStatus: "none" });

    const clear = jest.spyOn(runtime.client, "clear");
    const rechecks: Promise<unknown>[] = [];
    const checkKey = controller.checkKey.bind(controller);
    jest.spyOn(controller, "checkKey").mockImplementation(() => {
      const recheck = checkKey();
      rechecks.push(recheck);
      return recheck;
    });

    const steps: {
      write: (settings: SettingsStore) => Promise<void>;
      read: Partial<StoredSettings>;
      clears: number;
      rechecks: number;
      refresh: object;
    }[] = [
      {
        write: (s) => s.setApiKey("  md-user-key \n"),
        read: { apiKey: "md-user-key", usingDefaultKey: false },
        clears: 1,
        rechecks: 1,
        refresh: { signInRequired: false, keyStatus: "user" },
      },
      // An address changes what the cache may answer, not whose key it is.
      {
        write: (s) => s.setBaseUrl("https://md.example.com/"),
        read: { apiKey: "md-user-key", baseUrl: "https://md.example.com" },
        clears: 2,
        rechecks: 1,
        refresh: { keyStatus: "user" },
      },
      {
        write: (s) => s.setApiKey(""),
        read: { apiKey: "", usingDefaultKey: true },
        clears: 3,
        rechecks: 2,
        refresh: { keyStatus: "none" },
      },
    ];
    for (const step of steps) {
      await step.write(runtime.settings);
      await Promise.all(rechecks);
      expect(await runtime.settings.read()).toMatchObject(step.read);
      expect(clear).toHaveBeenCalledTimes(step.clears);
      expect(rechecks).toHaveLength(step.rechecks);
      expect(controller.getState()).toMatchObject(step.refresh);
    }
  });
});
