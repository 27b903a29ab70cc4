/**
 * The key store is chosen after Office is ready. The built dist/functions.js
 * is loaded the way Excel can load it: OfficeRuntime is not defined yet while
 * the bundle runs (Excel's host scripts, which define it, load after office.js
 * asynchronously) and Office.onReady resolves later. The store must still be
 * OfficeRuntime.storage, and a key an earlier load left in the localStorage
 * fallback must move there once.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { DIST, loadFunctionsBundle, type LoadedBundle } from "../../harness/bundle";

interface RuntimeInBundle {
  settings: {
    read(): Promise<{ apiKey: string; baseUrl: string; usingDefaultKey: boolean }>;
    setApiKey(value: string): Promise<void>;
  };
}

/** The runtime functions.js registered (symbol-keyed globals are not mirrored onto the vm's sandbox object). */
const runtimeOf = (bundle: LoadedBundle) =>
  vm.runInContext('globalThis[Symbol.for("market-data.runtime")]', bundle.context) as RuntimeInBundle;

const built = existsSync(path.join(DIST, "functions.js"));
const describeBuilt = built ? describe : describe.skip;

describeBuilt("the key store (dist/functions.js, OfficeRuntime defined after the bundle loaded)", () => {
  it("waits for Office: the key saved in OfficeRuntime.storage is the one read", async () => {
    const bundle = loadFunctionsBundle({
      lateOfficeRuntime: true,
      storage: { "md.apiKey": "user-entered-key" },
      localStorage: {},
    });
    expect((bundle.context as { OfficeRuntime?: unknown }).OfficeRuntime).toBeUndefined();
    const reading = runtimeOf(bundle).settings.read();
    bundle.officeReady();
    await expect(reading).resolves.toMatchObject({ apiKey: "user-entered-key", usingDefaultKey: false });
  });

  it("a key saved before Office was ready goes to OfficeRuntime.storage, not localStorage", async () => {
    const bundle = loadFunctionsBundle({ lateOfficeRuntime: true, localStorage: {} });
    const saving = runtimeOf(bundle).settings.setApiKey("typed-early");
    bundle.officeReady();
    await saving;
    expect(bundle.storage.get("md.apiKey")).toBe("typed-early");
    expect(bundle.localStorage.has("md.apiKey")).toBe(false);
  });

  it("moves a key found in the localStorage fallback to OfficeRuntime.storage, once", async () => {
    const first = loadFunctionsBundle({
      lateOfficeRuntime: true,
      localStorage: { "md.apiKey": "saved-in-fallback", "md.baseUrl": "https://md.example.test/api" },
    });
    first.officeReady();
    await expect(runtimeOf(first).settings.read()).resolves.toMatchObject({
      apiKey: "saved-in-fallback",
      baseUrl: "https://md.example.test/api",
      usingDefaultKey: false,
    });
    expect(Object.fromEntries(first.storage)).toEqual({
      "md.apiKey": "saved-in-fallback",
      "md.baseUrl": "https://md.example.test/api",
    });
    expect(first.localStorage.size).toBe(0);

    // The next start finds nothing left to move, and the key is still there.
    const next = loadFunctionsBundle({ storage: Object.fromEntries(first.storage), localStorage: {} });
    await expect(runtimeOf(next).settings.read()).resolves.toMatchObject({ apiKey: "saved-in-fallback" });
    expect(next.localStorage.size).toBe(0);
  });

  it("keeps the key OfficeRuntime.storage already has and drops the stale copy in localStorage", async () => {
    const bundle = loadFunctionsBundle({
      lateOfficeRuntime: true,
      storage: { "md.apiKey": "current" },
      localStorage: { "md.apiKey": "stale" },
    });
    bundle.officeReady();
    await expect(runtimeOf(bundle).settings.read()).resolves.toMatchObject({ apiKey: "current" });
    expect(bundle.localStorage.has("md.apiKey")).toBe(false);
  });
});

describe("the key store outside Office", () => {
  it("uses localStorage in a plain browser page (no OfficeRuntime once Office is ready)", async () => {
    const { defaultStorage } = await import("../../src/office/settings");
    const local = new Map<string, string>([["md.apiKey", "browser-key"]]);
    const storage = defaultStorage({
      Office: { onReady: async () => ({ host: null }) },
      localStorage: {
        getItem: (k: string) => local.get(k) ?? null,
        setItem: (k: string, v: string) => void local.set(k, v),
        removeItem: (k: string) => void local.delete(k),
      } as Storage,
    });
    expect(await storage.getItem("md.apiKey")).toBe("browser-key");
    await storage.setItem("md.baseUrl", "https://x.test");
    expect(local.get("md.baseUrl")).toBe("https://x.test");
  });

  it("chooses anyway when Office.onReady never answers", async () => {
    const { defaultStorage } = await import("../../src/office/settings");
    const storage = defaultStorage({ Office: { onReady: () => new Promise(() => undefined) } }, 20);
    await storage.setItem("md.apiKey", "k");
    expect(await storage.getItem("md.apiKey")).toBe("k");
  });
});
