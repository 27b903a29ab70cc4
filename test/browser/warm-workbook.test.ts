/**
 * Warm workbooks in a real browser: the built bundle (dist/functions.js, as
 * the task pane page loads it) keeps series in Chromium's IndexedDB, so after
 * a page reload — a new JavaScript context, as when Excel opens the workbook
 * again — the same MD formulas calculate without a series request for
 * settled data. The page records the functions functions.js associates, and
 * the test calls them as Excel would. Also in Chromium: the next day (the
 * page's clock moved on) fetches only the new days, a history the service
 * revised is picked up once the stored data is cleared, and an IndexedDB that
 * refuses to open (a private window) fails no cell.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { addDays } from "../../src/core/calendar";
import { DEMO_API_KEY, startSandbox, type SandboxHandle } from "../../sandbox/server";
import { DIST } from "../../harness/bundle";
import { describeBrowser, launchBrowser, usePaneBrowser } from "../support/browser";
import { recordFunctionsInPage } from "../support/pane-page";
import { useSandbox } from "../support/sandbox";

type Formula = [name: string, ...args: unknown[]];

/** A comps sheet and a history table, all over settled days: every declared argument, null where omitted, as Excel passes them. */
const FORMULAS: Formula[] = [
  ["SERIES", [["eth", "btc"]], [["PRICE", "FEES"]], "2024-01-01", "2024-12-31", null, null],
  ["LATEST", "eth", "PRICE", "2024-06-30", null],
  ["LATEST", "sol", "PRICE", "2024-06-30", null],
  ["LATEST", "btc", "FEES", "2024-06-30", null],
  ["AGG", "eth", "FEES", "30D", "SUM", "2024-06-30", null],
];

/** Series the formulas read: eth, btc × PRICE, FEES, and sol PRICE (a series is kept once, whatever the windows). */
const SERIES_HELD = 5;
/** Series calls the functions make: 4 for the table, one per LATEST, one for the AGG window. */
const SERIES_CALLS = 8;

describeBrowser("warm workbooks: the built bundle's IndexedDB store across a page reload (headless Chromium)", () => {
  beforeAll(() => {
    expect(existsSync(path.join(DIST, "functions.js"))).toBe(true);
  });
  const sandbox = useSandbox({ port: 0, insightFirstCallDelayMs: 0 });
  const browser = usePaneBrowser();

  async function open(page: Page): Promise<void> {
    await page.goto(`${browser.pane.url}/taskpane.html`);
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
  }

  /** Calls each formula's function as Excel would and returns what the cells would show. */
  function calculate(page: Page, formulas: Formula[] = FORMULAS): Promise<unknown[]> {
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
    }, formulas);
  }

  const storage = (page: Page) =>
    page.evaluate(() => {
      const runtime = (globalThis as Record<symbol, { client: { storage(): Record<string, unknown> } }>)[
        Symbol.for("market-data.runtime")
      ];
      return runtime!.client.storage();
    });

  const seriesRequests = (from: SandboxHandle = sandbox) =>
    from.requestLog().filter((entry) => entry.path.startsWith("/data/api/"));

  const errorsIn = (cells: unknown[]) => cells.filter((v) => typeof v === "string" && v.startsWith("error"));

  /** Waits until the store has written `series` series to IndexedDB. */
  async function storedAtLeast(page: Page, series: number): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 10_000;
    let status = await storage(page);
    while ((status.series as number) < series && Date.now() < deadline) {
      await page.waitForTimeout(100);
      status = await storage(page);
    }
    return status;
  }

  /**
   * The pane's page with the service's address and key set, and the functions
   * functions.js associates recorded for the test to call. `refuseIndexedDB`:
   * indexedDB.open throws, as in a private window.
   */
  async function prepare(page: Page, baseUrl: string, refuseIndexedDB = false): Promise<void> {
    await recordFunctionsInPage(page, { baseUrl, apiKey: DEMO_API_KEY });
    if (!refuseIndexedDB) return;
    await page.addInitScript(() => {
      // Firefox's private windows: "InvalidStateError: A mutation operation was attempted on a database that did not allow mutations."
      const open = () => {
        throw new DOMException(
          "A mutation operation was attempted on a database that did not allow mutations.",
          "InvalidStateError",
        );
      };
      Object.defineProperty(IDBFactory.prototype, "open", { value: open, configurable: true });
    });
  }

  it("the second load sends no series request for settled data, and the cells are the same", async () => {
    const page = await browser.session.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await prepare(page, sandbox.url);
    sandbox.reset();
    await open(page);
    const first = await calculate(page);
    expect(first.filter((v) => typeof v === "string" && v.startsWith("error"))).toEqual([]);
    expect(seriesRequests().length).toBeGreaterThan(0);
    // The store writes in the background: wait until every series is in IndexedDB.
    const status = await storedAtLeast(page, SERIES_HELD);
    expect(status).toMatchObject({ backend: "indexeddb", series: SERIES_HELD });

    // A reload: a new JavaScript context, a new client, the same IndexedDB.
    sandbox.reset();
    await page.reload();
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
    const second = await calculate(page);
    expect(second).toEqual(first);
    // One request, none for the settled data: the check that the service still accepts this key before the store
    // answers (src/api/store/acceptance.ts), one day of one PRICE.
    expect(seriesRequests().map((entry) => new URLSearchParams(entry.query).get("limit"))).toEqual(["1"]);
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

  /** A history to today: open-ended daily windows, as MD.SERIES with a start date and no end. */
  const HISTORY: Formula[] = [["SERIES", [["eth", "btc"]], [["PRICE", "FEES"]], "2024-06-01", null, null, null]];
  const D = "2025-06-15";
  const at = (day: string, time = "12:00:00") => new Date(`${day}T${time}Z`);
  /** The date column holds Excel serials (1900 system). */
  const serial = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000 + 25569;

  it("the next day fetches only the new days; a revised history comes back once the stored data is cleared", async () => {
    // The page's clock and the service's last day with data move on together.
    const service = await startSandbox({ port: 0, today: D, insightFirstCallDelayMs: 0 });
    // A browser of its own: Playwright's clock is the whole context's.
    const own = await launchBrowser();
    const page = await own.context.newPage();
    try {
      await prepare(page, service.url);
      // Date and the timers faked from noon on day D; time flows as usual from there.
      await page.clock.install({ time: at(D) });
      await open(page);
      const day1 = (await calculate(page, HISTORY))[0] as unknown[][];
      expect(errorsIn([day1])).toEqual([]);
      expect(day1[day1.length - 1]![0]).toBe(serial(D));
      expect(await storedAtLeast(page, 4)).toMatchObject({ backend: "indexeddb" });

      // Opened again the next day: the day that was today (never settled when fetched) and the new one, nothing
      // older (the day before came with a real value, so it settled: api/store/trust.ts).
      service.reset();
      service.setToday(addDays(D, 1));
      await page.clock.setSystemTime(at(addDays(D, 1)));
      await page.reload();
      await page.getByRole("heading", { name: "Market Data" }).waitFor();
      const day2 = (await calculate(page, HISTORY))[0] as unknown[][];
      expect(day2.length).toBe(day1.length + 1);
      expect(day2.slice(0, -1)).toEqual(day1);
      expect(day2[day2.length - 1]![0]).toBe(serial(addDays(D, 1)));
      const asked = seriesRequests(service).map((entry) => new URLSearchParams(entry.query));
      expect(asked.length).toBeGreaterThan(0);
      for (const q of asked) {
        expect(q.get("startDate")).toBe(D);
        expect(q.get("endDate") ?? addDays(D, 1)).toBe(addDays(D, 1));
      }

      // The service revises its history (a methodology change). Opened again a minute later, the workbook
      // still shows what was stored; once the stored data is cleared (Reload everything does that first),
      // every day is fetched again and the revision shows.
      service.setRevision(1);
      await page.clock.setSystemTime(at(addDays(D, 1), "12:01:00"));
      await page.reload();
      await page.getByRole("heading", { name: "Market Data" }).waitFor();
      expect((await calculate(page, HISTORY))[0]).toEqual(day2);
      await page.getByRole("tab", { name: "Settings" }).click();
      await page.getByRole("button", { name: "Clear stored data" }).click();
      await page.getByText("Stored data cleared").waitFor();
      const revised = (await calculate(page, HISTORY))[0] as unknown[][];
      expect(revised.length).toBe(day2.length);
      const values = (table: unknown[][]) => table.slice(1).flatMap((row) => row.slice(1));
      expect(values(revised)).toEqual(values(day2).map((v) => (typeof v === "number" ? v * 2 : v)));
    } finally {
      await own.close();
      await service.close();
    }
  }, 120_000);

  it("an IndexedDB that refuses to open (a private window) fails no cell, and the pane says the data is kept for this session only", async () => {
    const page = await browser.session.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      await prepare(page, sandbox.url, true);
      await open(page);
      const cells = await calculate(page);
      expect(errorsIn(cells)).toEqual([]);
      // The same answers as the page whose store works (the first test's page, or the service now).
      const reference = await browser.session.context.newPage();
      await prepare(reference, sandbox.url);
      await open(reference);
      expect(await calculate(reference)).toEqual(cells);
      await reference.close();
      expect(await storage(page)).toMatchObject({ backend: "memory" });
      await page.getByRole("tab", { name: "Settings" }).click();
      await expect(page.getByTestId("stored-data").textContent()).resolves.toMatch(
        /^Stored data: \d+ series, .*, this session only: /,
      );
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
