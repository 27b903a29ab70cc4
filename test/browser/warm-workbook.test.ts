/**
 * Warm workbooks in a real browser: the built bundle (dist/functions.js, as
 * the task pane page loads it) keeps series in Chromium's IndexedDB, so after
 * a page reload — a new JavaScript context, as when Excel opens the workbook
 * again — the same MD formulas calculate without a series request for
 * settled data. The page records the functions functions.js associates, and
 * the test calls them as Excel would.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { DEMO_API_KEY, startSandbox, type SandboxHandle } from "../../sandbox/server";
import { DIST } from "../support/bundle";
import {
  describeBrowser,
  launchBrowser,
  serveStatic,
  type BrowserSession,
  type StaticServer,
} from "../support/browser";

type Formula = [name: string, ...args: unknown[]];

/** A comps sheet and a history table, all over settled days. */
const FORMULAS: Formula[] = [
  ["SERIES", [["eth", "btc"]], [["PRICE", "FEES"]], "2024-01-01", "2024-12-31", null, null],
  ["LATEST", "eth", "PRICE", "2024-06-30"],
  ["LATEST", "sol", "PRICE", "2024-06-30"],
  ["LATEST", "btc", "FEES", "2024-06-30"],
  ["AGG", "eth", "FEES", "30D", "SUM", "2024-06-30"],
];

/** Series the formulas read: eth, btc × PRICE, FEES, and sol PRICE (a series is kept once, whatever the windows). */
const SERIES_HELD = 5;
/** Series calls the functions make: 4 for the table, one per LATEST, one for the AGG window. */
const SERIES_CALLS = 8;

describeBrowser("warm workbooks: the built bundle's IndexedDB store across a page reload (headless Chromium)", () => {
  let session: BrowserSession;
  let server: StaticServer;
  let sandbox: SandboxHandle;

  beforeAll(async () => {
    expect(existsSync(path.join(DIST, "functions.js"))).toBe(true);
    server = await serveStatic();
    sandbox = await startSandbox({ port: 0, insightFirstCallDelayMs: 0 });
    session = await launchBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await server?.close();
    await sandbox?.close();
  });

  async function open(page: Page): Promise<void> {
    await page.goto(`${server.url}/taskpane.html`);
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
  }

  /** Calls each formula's function as Excel would and returns what the cells would show. */
  function calculate(page: Page): Promise<unknown[]> {
    return page.evaluate(async (formulas) => {
      const fns = (window as unknown as { __mdFunctions: Record<string, (...a: unknown[]) => unknown> }).__mdFunctions;
      return Promise.all(
        formulas.map(async ([name, ...args]) => {
          const invocation = { address: "Sheet1!A1", isInValuePreview: false, onCanceled: null };
          try {
            return await fns[name]!(...args, invocation);
          } catch (error) {
            return `error: ${(error as Error).message}`;
          }
        }),
      );
    }, FORMULAS);
  }

  const storage = (page: Page) =>
    page.evaluate(() => {
      const runtime = (globalThis as Record<symbol, { client: { storage(): Record<string, unknown> } }>)[
        Symbol.for("market-data.runtime")
      ];
      return runtime!.client.storage();
    });

  const seriesRequests = () => sandbox.requestLog().filter((entry) => entry.path.startsWith("/data/api/"));

  it("the second load sends no series request for settled data, and the cells are the same", async () => {
    const page = await session.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript(
      ([baseUrl, apiKey]) => {
        // The pane's own document only; office.js's telemetry frame may not even read localStorage.
        if (window !== window.top) return;
        localStorage.setItem("md.baseUrl", baseUrl);
        localStorage.setItem("md.apiKey", apiKey);
        // What Excel's CustomFunctions.associate would receive. office.js replaces `associate` on whatever
        // CustomFunctions object it finds outside Office; this one keeps its own.
        const registered: Record<string, unknown> = {};
        const customFunctions = { Error: class extends Error {}, ErrorCode: {} };
        Object.defineProperty(customFunctions, "associate", {
          get: () => (id: string, fn: unknown) => void (registered[id] = fn),
          set: () => undefined,
          enumerable: true,
        });
        Object.defineProperty(window, "__mdFunctions", { value: registered });
        Object.defineProperty(window, "CustomFunctions", { get: () => customFunctions, set: () => undefined });
      },
      [sandbox.url, DEMO_API_KEY],
    );

    sandbox.reset();
    await open(page);
    const first = await calculate(page);
    expect(first.filter((v) => typeof v === "string" && v.startsWith("error"))).toEqual([]);
    expect(seriesRequests().length).toBeGreaterThan(0);
    // The store writes in the background: wait until every series is in IndexedDB.
    const deadline = Date.now() + 10_000;
    let status = await storage(page);
    while ((status.series as number) < SERIES_HELD && Date.now() < deadline) {
      await page.waitForTimeout(100);
      status = await storage(page);
    }
    expect(status).toMatchObject({ backend: "indexeddb", series: SERIES_HELD });

    // A reload: a new JavaScript context, a new client, the same IndexedDB.
    sandbox.reset();
    await page.reload();
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
    const second = await calculate(page);
    expect(second).toEqual(first);
    expect(seriesRequests()).toEqual([]);
    // Every series call of the second load was answered from the store.
    expect(await storage(page)).toMatchObject({ backend: "indexeddb", hits: SERIES_CALLS });

    // What Chromium keeps: the data, never the key.
    const kept = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const request = indexedDB.open("market-data-store");
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const db = request.result;
            const names = Array.from(db.objectStoreNames);
            const tx = db.transaction(names, "readonly");
            const out: unknown[] = [];
            for (const name of names) {
              const all = tx.objectStore(name).getAll();
              all.onsuccess = () => out.push(all.result);
            }
            tx.oncomplete = () => {
              db.close();
              resolve(JSON.stringify(out));
            };
          };
        }),
    );
    expect(kept).toContain('"2024-12-31"');
    expect(kept).not.toContain(DEMO_API_KEY);

    // The pane says where the data is.
    await page.getByRole("tab", { name: "Settings" }).click();
    await expect(page.getByTestId("stored-data").textContent()).resolves.toMatch(
      new RegExp(`^Stored data: ${SERIES_HELD} series, .* on this computer$`),
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
