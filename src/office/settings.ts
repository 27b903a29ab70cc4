import { normalizeBaseUrl, type ClientSettings } from "../api";

/** The storage keys; shared with the task pane, never written to the workbook. */
export const SETTING_KEYS = {
  apiKey: "md.apiKey",
  baseUrl: "md.baseUrl",
} as const;

/** The subset of `OfficeRuntime.storage` the add-in uses; also met by the stand-ins in tests. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/**
 * `OfficeRuntime.storage` inside Office (shared by functions and pane, kept out
 * of the workbook file). A plain browser has no OfficeRuntime, so the pane falls
 * back to localStorage there, and to memory where neither exists.
 */
export function defaultStorage(): KeyValueStorage {
  const runtime = (globalThis as { OfficeRuntime?: { storage?: KeyValueStorage } }).OfficeRuntime;
  if (runtime?.storage) return runtime.storage;
  const local = (globalThis as { localStorage?: Storage }).localStorage;
  if (local) {
    return {
      getItem: async (key) => local.getItem(key),
      setItem: async (key, value) => local.setItem(key, value),
      removeItem: async (key) => local.removeItem(key),
    };
  }
  const memory = new Map<string, string>();
  return {
    getItem: async (key) => memory.get(key) ?? null,
    setItem: async (key, value) => void memory.set(key, value),
    removeItem: async (key) => void memory.delete(key),
  };
}

export interface SettingsDefaults {
  baseUrl: string;
  apiKey: string;
}

export interface StoredSettings extends ClientSettings {
  /** True while no key is stored and the build's demo key is in use. */
  usingDefaultKey: boolean;
  usingDefaultBaseUrl: boolean;
}

/** Reads and writes the two settings; every read goes to storage so a change applies on the next calculation. */
export class SettingsStore {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly defaults: SettingsDefaults,
  ) {}

  async read(): Promise<StoredSettings> {
    const [apiKey, baseUrl] = await Promise.all([
      this.storage.getItem(SETTING_KEYS.apiKey),
      this.storage.getItem(SETTING_KEYS.baseUrl),
    ]);
    const key = apiKey?.trim() ?? "";
    const url = baseUrl?.trim() ?? "";
    return {
      apiKey: key || this.defaults.apiKey,
      baseUrl: url || this.defaults.baseUrl,
      usingDefaultKey: !key,
      usingDefaultBaseUrl: !url,
    };
  }

  /** An empty value removes the stored one, returning to the build's default. */
  async setApiKey(value: string): Promise<void> {
    await this.write(SETTING_KEYS.apiKey, value.trim());
  }

  /** Refuses (ConfigError) an address the client would refuse: not http(s), with a user or password, plain http to another machine. */
  async setBaseUrl(value: string): Promise<void> {
    const trimmed = value.trim();
    await this.write(SETTING_KEYS.baseUrl, trimmed ? normalizeBaseUrl(trimmed) : "");
  }

  private async write(key: string, value: string): Promise<void> {
    if (value) await this.storage.setItem(key, value);
    else await this.storage.removeItem(key);
  }
}
