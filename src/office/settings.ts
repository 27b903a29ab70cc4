import { ConfigError, MIN_API_KEY_LENGTH, normalizeBaseUrl, type ClientSettings } from "../api";
import type { GatewayInfo, GatewayKeyMode, GatewaySignIn } from "./sign-in/gateway";
import { officeReady, type OfficeReadyGlobals } from "./office-ready";

/** The storage keys; shared with the task pane, never written to the workbook. */
export const SETTING_KEYS = {
  apiKey: "md.apiKey",
  baseUrl: "md.baseUrl",
} as const;

/**
 * The sign-in provider (its authority) the user signed out of on this computer: Sign out outlasts the page, so
 * that where Office signs the user in itself (nested app authentication) the next page does not sign them in
 * again silently (sign-in/sign-in.ts). Not a secret: an address the gateway publishes.
 */
export const SIGNED_OUT_KEY = "md.signedOutOf";

/** The subset of `OfficeRuntime.storage` the add-in uses; also met by the stand-ins in tests. */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

interface StorageGlobals extends OfficeReadyGlobals {
  OfficeRuntime?: { storage?: KeyValueStorage };
  localStorage?: Storage;
}

/** How long to wait for Office.onReady before choosing with what is there (outside Office it resolves at once). */
export const OFFICE_READY_TIMEOUT_MS = 10_000;

/**
 * `OfficeRuntime.storage` inside Office (shared by functions and pane, kept
 * out of the workbook file); localStorage in a plain browser, memory where
 * neither exists.
 *
 * Chosen lazily, on first use after `Office.onReady()`: functions.js runs
 * before Excel's host scripts have defined `OfficeRuntime` (office.js loads
 * them asynchronously), so a store chosen while the bundle loads fell back to
 * localStorage, and when the load order flipped, the key seemed lost. A key
 * or address found in localStorage when OfficeRuntime.storage is chosen is
 * moved there once (a value already in OfficeRuntime.storage wins) and
 * removed from localStorage.
 */
export function defaultStorage(
  globals: StorageGlobals = globalThis as StorageGlobals,
  readyTimeoutMs = OFFICE_READY_TIMEOUT_MS,
): KeyValueStorage {
  let chosen: Promise<KeyValueStorage> | null = null;
  const store = () =>
    (chosen ??= choose(globals, readyTimeoutMs).catch((error: unknown) => {
      chosen = null; // try again on the next use
      throw error;
    }));
  return {
    getItem: async (key) => (await store()).getItem(key),
    setItem: async (key, value) => (await store()).setItem(key, value),
    removeItem: async (key) => (await store()).removeItem(key),
  };
}

async function choose(globals: StorageGlobals, readyTimeoutMs: number): Promise<KeyValueStorage> {
  await officeReady(globals, readyTimeoutMs);
  const local = globals.localStorage ? webStorage(globals.localStorage) : null;
  const office = globals.OfficeRuntime?.storage;
  if (office) {
    if (globals.localStorage) await moveToOfficeStorage(globals.localStorage, office);
    return office;
  }
  return local ?? memoryStorage();
}

/** Once: a setting the fallback holds goes to OfficeRuntime.storage unless it already has one, then leaves localStorage. */
async function moveToOfficeStorage(local: Storage, office: KeyValueStorage): Promise<void> {
  for (const key of Object.values(SETTING_KEYS)) {
    const value = local.getItem(key);
    if (value === null) continue;
    try {
      if ((await office.getItem(key)) === null) await office.setItem(key, value);
      local.removeItem(key);
    } catch {
      // Left in localStorage and moved the next time the runtime starts; reading the settings goes on.
    }
  }
}

function webStorage(local: Storage): KeyValueStorage {
  return {
    getItem: async (key) => local.getItem(key),
    setItem: async (key, value) => local.setItem(key, value),
    removeItem: async (key) => local.removeItem(key),
  };
}

function memoryStorage(): KeyValueStorage {
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
  /** The base address is the team gateway holding the firm's key: no key is sent or asked for. */
  keyManagedByGateway: boolean;
  /** Present when the gateway lets in only signed-in people: with whom they sign in (the pane does; src/office/sign-in/sign-in.ts). */
  signIn?: GatewaySignIn;
}

/** Which setting a write changed. */
export type SettingName = keyof typeof SETTING_KEYS;

export interface SettingsChange {
  setting: SettingName;
}

export type SettingsListener = (change: SettingsChange) => void;

/**
 * Reads and writes the two settings; every read goes to storage so a change applies on the next calculation.
 * Every write is published (`onChange`), whoever made it: what must follow a change (the client's cache, the
 * refresh feature's idea of the key) is wired once, by the runtime (settings-changes.ts), not by each writer.
 */
export class SettingsStore {
  private readonly listeners = new Set<SettingsListener>();

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly defaults: SettingsDefaults,
    /**
     * Asks a same-origin base address whether it is a gateway (see gateway.ts): its key mode, or all it says of
     * itself (GatewayProbe.describe, with sign-in); none: never.
     */
    private readonly gateway?: (baseUrl: string) => Promise<GatewayKeyMode | GatewayInfo | null>,
  ) {}

  async read(): Promise<StoredSettings> {
    const [apiKey, baseUrl] = await Promise.all([
      this.storage.getItem(SETTING_KEYS.apiKey),
      this.storage.getItem(SETTING_KEYS.baseUrl),
    ]);
    const key = apiKey?.trim() ?? "";
    const url = baseUrl?.trim() ?? "";
    const effectiveUrl = url || this.defaults.baseUrl;
    const answer = this.gateway && effectiveUrl ? await this.gateway(effectiveUrl) : null;
    const info: GatewayInfo | null = typeof answer === "string" ? { keyMode: answer } : answer;
    const firm = info?.keyMode === "firm";
    return {
      ...(info?.signIn ? { signIn: info.signIn, signedInUsersOnly: true } : {}),
      // The firm's gateway adds its key; one stored here is kept for other addresses, but not sent.
      apiKey: firm ? "" : key || this.defaults.apiKey,
      baseUrl: effectiveUrl,
      usingDefaultKey: !firm && !key,
      usingDefaultBaseUrl: !url,
      keyManagedByGateway: firm,
    };
  }

  /** Called after each write that reached storage; returns the unsubscribe. */
  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Trimmed, as pasted keys often carry a space or a newline; an empty value
   * removes the stored one, returning to the build's default. A key shorter
   * than MIN_API_KEY_LENGTH (8) is refused (ConfigError): it is not a whole
   * key, and messages could not hide it without starring ordinary words.
   */
  async setApiKey(value: string): Promise<void> {
    const key = value.trim();
    if (key && key.length < MIN_API_KEY_LENGTH) {
      throw new ConfigError(
        `An API key has at least ${MIN_API_KEY_LENGTH} characters; this one has ${key.length}. Paste the whole key from your market-data account.`,
      );
    }
    await this.write("apiKey", key);
  }

  /**
   * Refuses (ConfigError) an address the client would refuse: not http(s), with a user or password, plain http to
   * another machine. A path alone ("/api", the team gateway on the add-in's host) is stored as typed.
   */
  async setBaseUrl(value: string): Promise<void> {
    const trimmed = value.trim().replace(/\/+$/, "");
    const gatewayPath = trimmed.startsWith("/") && !trimmed.startsWith("//");
    await this.write("baseUrl", trimmed && !gatewayPath ? normalizeBaseUrl(trimmed) : trimmed);
  }

  /** The provider the user signed out of on this computer (SIGNED_OUT_KEY), or null. */
  async signedOutOf(): Promise<string | null> {
    return (await this.storage.getItem(SIGNED_OUT_KEY)) || null;
  }

  /** Keeps (or, with null, forgets) the provider the user signed out of. No change event: no setting changed. */
  async setSignedOutOf(authority: string | null): Promise<void> {
    if (authority) await this.storage.setItem(SIGNED_OUT_KEY, authority);
    else await this.storage.removeItem(SIGNED_OUT_KEY);
  }

  private async write(setting: SettingName, value: string): Promise<void> {
    const key = SETTING_KEYS[setting];
    if (value) await this.storage.setItem(key, value);
    else await this.storage.removeItem(key);
    this.publish({ setting });
  }

  /** Every listener hears the change; a listener's failure is the write's (as when the writer reacted itself), reported once all have run. */
  private publish(change: SettingsChange): void {
    const failures: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
