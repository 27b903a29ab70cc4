/**
 * Secret hygiene: the API key never leaves the two places it belongs (the
 * settings storage, and the request line sent to the service). A sentinel key
 * goes through the BUILT functions bundle and the BUILT task pane against:
 * a sandbox that accepts it, a sandbox that rejects it (auth error paths), the
 * same with injected faults (retry and failure paths), an address where
 * nothing listens, and a careless service that echoes the key back in every
 * answer. The sentinel, in every encoding a URL gives it, must not appear in
 * console output, error messages, cell values, the sandbox request logs, the
 * workbook (cells written, document settings, custom XML), browser storage
 * other than the key's own entry, or the pane's DOM and console — except the
 * masked key input's value, where the user typed it.
 */
import type { Page } from "playwright-core";
import { compsWorkbook } from "../support/recordings";
import type { WorkbookStandIn } from "../support/workbook-stand-in";
import { CustomFunctionsError, loadFunctionsBundle, type LoadedBundle } from "../../harness/bundle";
import { describeBrowser, usePaneBrowser } from "../support/browser";
import { useRefusingServer } from "../support/local-server";
import { useEchoServer } from "../support/echo-server";
import {
  gotoPane,
  installWorkbookInPage,
  type PaneWatch,
  showView,
  watchPage,
  workbookStandInSource,
} from "../support/pane-page";
import { useSandbox } from "../support/sandbox";

const SENTINEL = "SENTINEL-KEY-7f3a9c";
/** A key with characters a URL must encode, so every encoded form is checked too. */
const SENTINEL_RESERVED = "SENTINEL/KEY+7f3a9c=&x y";
const FAULTS = { serverErrorRate: 0.3, rateLimitRate: 0.15, retryAfterSeconds: 1, dropRate: 0.1, badJsonRate: 0.1 };

/** The sentinel as it may appear: raw, percent-encoded, form-encoded, and (for keys with spaces) with either. */
function forms(key: string): string[] {
  return [
    ...new Set([key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2), encodeURI(key)]),
  ];
}

/** Where in `text` a form of the key appears, as short excerpts (empty: nowhere). */
function leaks(key: string, text: string): string[] {
  const found: string[] = [];
  for (const form of forms(key)) {
    const at = text.indexOf(form);
    if (at >= 0) found.push(`…${text.slice(Math.max(0, at - 60), at + form.length + 20)}…`);
  }
  return found;
}

/** Every cell a workbook might hold, errors included: all the MD functions, good and bad arguments. */
const CELLS: [string, unknown[]][] = [
  ["VERSION", []],
  ["SERIES", ["eth, btc", "PRICE, FEES", "2024-01-01", "2024-01-10"]],
  ["SERIES", ["sol", "PRICE", "-1M"]],
  ["SERIES", ["eth", "NO_SUCH_METRIC", "2024-01-01", "2024-01-10"]],
  ["SERIES", ["eq-aapl", "TOTAL_REVENUE", "2023-01-01", "2023-12-31", "DAY"]],
  ["LATEST", ["eth", "PRICE", "2024-06-30"]],
  ["LATEST", ["btc", "L30_FEES"]],
  ["LATEST", ["nosuchcoin", "PRICE"]],
  ["AGG", ["eth", "FEES", "30D", "SUM", "2024-06-30"]],
  ["AGG", ["sol", "PRICE", "-9999Y"]],
  ["AGG", ["eth", "DAU", "MTD"]],
  ["FLOWS", ["ethereum, solana", "-30D"]],
  ["ASSETS", ["usd eth"]],
  ["METRICS", ["eth", "fees"]],
  ["INSIGHTS", ["streaks"]],
  ["INSIGHTS", ["no-such-feed"]],
  ["SUPPLY", ["usdc", "-14D"]],
];

/** Cell values as text, errors with their code and message. */
function cellText(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v instanceof CustomFunctionsError
      ? { code: v.code, message: v.message }
      : v instanceof Error
        ? { error: v.message }
        : v,
  );
}

async function runBundle(baseUrl: string, key: string): Promise<{ bundle: LoadedBundle; values: string[] }> {
  const bundle = loadFunctionsBundle({ storage: { "md.baseUrl": baseUrl, "md.apiKey": key } });
  const values = await Promise.all(
    CELLS.map(async ([id, args]) => {
      try {
        return cellText(await bundle.call(id, args));
      } catch (error) {
        return cellText(error);
      }
    }),
  );
  // And the value preview path (cache-only), which has its own message.
  values.push(
    await bundle.call("LATEST", ["eth", "PRICE", "2020-01-01"], { isInValuePreview: true }).then(cellText, cellText),
  );
  return { bundle, values };
}

describe("secret hygiene: the functions bundle", () => {
  const accepting = useSandbox({ quiet: true, apiKey: SENTINEL, insightFirstCallDelayMs: 0 });
  const rejecting = useSandbox({ quiet: true, apiKey: "a-different-key", insightFirstCallDelayMs: 0 });
  const echo = useEchoServer();
  const unreachable = useRefusingServer();

  const scenarios: [string, () => Promise<string>, string][] = [
    ["a sandbox that accepts the key", async () => accepting.url, SENTINEL],
    ["a sandbox that rejects the key", async () => rejecting.url, SENTINEL],
    ["a service that echoes the key back", async () => echo.url, SENTINEL],
    ["a service that echoes a key with reserved characters", async () => echo.url, SENTINEL_RESERVED],
    ["an address that cannot be reached", async () => unreachable.url, SENTINEL],
  ];

  it.each(scenarios)("%s: no cell, error message or console line shows the key", async (_, url, key) => {
    const { bundle, values } = await runBundle(await url(), key);
    expect(values.length).toBe(CELLS.length + 1);
    expect(values.flatMap((v) => leaks(key, v))).toEqual([]);
    expect(leaks(key, bundle.console.map((line) => line.text).join("\n"))).toEqual([]);
    // The key is in the settings storage under md.apiKey, and nowhere else.
    const otherSettings = [...bundle.storage].filter(([name]) => name !== "md.apiKey");
    expect(leaks(key, JSON.stringify(otherSettings))).toEqual([]);
    expect(bundle.storage.get("md.apiKey")).toBe(key);
  });

  it("with injected faults (retries, 5xx, 429, drops, truncated bodies) against both sandboxes, still nowhere", async () => {
    accepting.setFaults(FAULTS);
    rejecting.setFaults(FAULTS);
    try {
      for (const sandbox of [accepting, rejecting]) {
        const { bundle, values } = await runBundle(sandbox.url, SENTINEL);
        expect(values.flatMap((v) => leaks(SENTINEL, v))).toEqual([]);
        expect(leaks(SENTINEL, bundle.console.map((line) => line.text).join("\n"))).toEqual([]);
      }
      expect(accepting.stats().faultsInjected.total + rejecting.stats().faultsInjected.total).toBeGreaterThan(0);
    } finally {
      accepting.setFaults({ serverErrorRate: 0, rateLimitRate: 0, dropRate: 0, badJsonRate: 0 });
      rejecting.setFaults({ serverErrorRate: 0, rateLimitRate: 0, dropRate: 0, badJsonRate: 0 });
    }
  }, 60_000);

  it("the sandboxes' request logs and stats never hold the key, though every request carried it", () => {
    for (const sandbox of [accepting, rejecting]) {
      const log = sandbox.requestLog();
      expect(log.length).toBeGreaterThan(10);
      expect(log.filter((entry) => /APIKey=/.test(entry.query)).length).toBeGreaterThan(0);
      expect(leaks(SENTINEL, JSON.stringify(log))).toEqual([]);
      expect(leaks(SENTINEL, JSON.stringify(sandbox.stats()))).toEqual([]);
    }
    // The rejecting sandbox really refused it: the error paths ran.
    expect(rejecting.stats().byStatus["401"] ?? 0).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------- the pane

/** Everything the pane shows or keeps, minus the key input's own value. */
async function paneSurfaces(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const clone = document.documentElement.cloneNode(true) as HTMLElement;
    const keyInputs = clone.querySelectorAll('[data-testid="api-key-input"], input[type="password"]');
    keyInputs.forEach((input) => input.removeAttribute("value"));
    const otherInputs = Array.from(document.querySelectorAll("input, textarea"))
      .filter((el) => !(el as HTMLElement).matches('[data-testid="api-key-input"], input[type="password"]'))
      .map((el) => (el as HTMLInputElement).value);
    const storage = (s: Storage, skip: string) =>
      Array.from({ length: s.length }, (_, i) => s.key(i)!)
        .filter((k) => k !== skip)
        .map((k) => `${k}=${s.getItem(k)}`)
        .join("\n");
    const workbook = (window as unknown as { __workbook: WorkbookStandIn }).__workbook;
    return {
      html: clone.outerHTML,
      text: document.body.innerText,
      title: document.title,
      otherInputs: otherInputs.join("\n"),
      localStorage: storage(localStorage, "md.apiKey"),
      sessionStorage: storage(sessionStorage, ""),
      workbookLog: JSON.stringify(workbook.log),
      workbookSettings: JSON.stringify(workbook.settings),
      workbookXml: JSON.stringify(workbook.customXmlParts()),
    };
  });
}

describeBrowser("secret hygiene: the task pane in headless Chromium", () => {
  const accepting = useSandbox({ quiet: true, apiKey: SENTINEL, insightFirstCallDelayMs: 0 });
  const rejecting = useSandbox({ quiet: true, apiKey: "a-different-key", insightFirstCallDelayMs: 0 });
  const echo = useEchoServer();
  const browser = usePaneBrowser();
  let watch: PaneWatch;

  beforeAll(async () => {
    const page = await browser.session.context.newPage();
    watch = watchPage(page);
    // The recorded workbook plays Excel (so the pane inserts formulas, refreshes and
    // saves workbook settings); the key and address are preset where the pane keeps them outside Office.
    await page.addInitScript(installWorkbookInPage, {
      source: workbookStandInSource(),
      recording: compsWorkbook().recording,
      apiKey: SENTINEL,
      baseUrl: accepting.url,
    });
    await gotoPane(page, browser.pane.url);
  }, 60_000);

  async function expectNoLeak(where: string): Promise<void> {
    const surfaces = await paneSurfaces(watch.page);
    const found = Object.entries(surfaces).flatMap(([name, text]) => leaks(SENTINEL, text).map((l) => `${name}: ${l}`));
    found.push(
      ...leaks(SENTINEL, [...watch.console, ...watch.pageErrors, ...watch.dialogs].join("\n")).map(
        (l) => `console: ${l}`,
      ),
    );
    expect({ where, found }).toEqual({ where, found: [] });
  }

  async function testConnection(): Promise<string> {
    const { page } = watch;
    await showView(page, "Settings");
    const result = page.getByTestId("connection-result");
    await page.getByRole("button", { name: "Test connection" }).click();
    await result.locator("div").first().waitFor({ timeout: 20_000 });
    return (await result.innerText()).trim();
  }

  async function setAddress(url: string): Promise<void> {
    const { page } = watch;
    await showView(page, "Settings");
    const input = page.getByTestId("base-url-input");
    if (!(await input.isVisible())) await page.getByRole("button", { name: "Advanced" }).click();
    await input.fill(url);
    await page.getByRole("button", { name: "Save address" }).click();
    await page.getByText("Service address saved.").waitFor();
  }

  /**
   * Picker: an asset, a metric, then a window for its preview (series requests
   * with the key); waits until the preview shows what `outcome` describes (its
   * debounce keeps the previous answer on screen for a moment, so "not loading"
   * alone is not enough).
   */
  async function pickAndPreview(window: string, outcome: RegExp): Promise<string> {
    const { page } = watch;
    await showView(page, "Picker");
    if (await page.getByTestId("asset-search").isVisible()) {
      await page.getByTestId("asset-search").fill("eth");
      await page.getByTestId("asset-option").first().click();
      await page.getByTestId("metric-option").first().click();
    }
    await page.getByRole("button", { name: `Window: last ${window}` }).click();
    const preview = page.getByTestId("function-preview");
    await page
      .waitForFunction(
        ([source, flags]) => {
          const text =
            (document.querySelector('[data-testid="function-preview"]') as HTMLElement | null)?.innerText ?? "";
          return !text.includes("Loading preview") && new RegExp(source, flags).test(text);
        },
        [outcome.source, outcome.flags] as const,
        { timeout: 30_000 },
      )
      .catch(async (error: unknown) => {
        throw new Error(`the ${window} preview never showed ${outcome}; it shows: ${await preview.innerText()}`, {
          cause: error,
        });
      });
    return preview.innerText();
  }

  it("the key input is masked, and the key is nowhere else on the page", async () => {
    await showView(watch.page, "Settings");
    const input = watch.page
      .getByTestId("api-key-input")
      .locator("input")
      .or(watch.page.locator('input[data-testid="api-key-input"]'));
    await expect(input.first().getAttribute("type")).resolves.toBe("password");
    await expect(input.first().inputValue()).resolves.toBe(SENTINEL);
    await expectNoLeak("settings on open");
  });

  it("success paths: test connection, refresh all, picker preview and insert, insights", async () => {
    expect(await testConnection()).toMatch(/Connected/);
    await watch.page.getByRole("button", { name: "Refresh all MD formulas" }).click();
    await watch.page.getByTestId("refresh-outcome").waitFor({ timeout: 20_000 });
    await pickAndPreview("1M", /[\d,]+ rows? (\(and a header row\) )?× \d+ columns?/);
    await watch.page.getByRole("button", { name: /^Insert the formula for eth PRICE/ }).click();
    await watch.page.getByTestId("place-outcome").waitFor();
    await showView(watch.page, "Insights");
    await watch.page.getByTestId("insight-card").first().waitFor({ timeout: 20_000 });
    await expectNoLeak("after the success paths");
    expect(accepting.stats().requests).toBeGreaterThan(2);
    const written = await watch.page.evaluate(
      () => (window as unknown as { __workbook: WorkbookStandIn }).__workbook.log.formulaWrites.length,
    );
    expect(written).toBeGreaterThan(0);
  }, 60_000);

  it("error paths: a sandbox that rejects the key, one with faults, a service that echoes the key", async () => {
    await setAddress(rejecting.url);
    expect(await testConnection()).toMatch(/rejected the API key/);
    await pickAndPreview("3M", /rejected the API key/);
    await expectNoLeak("against the rejecting sandbox");

    accepting.setFaults({ ...FAULTS, serverErrorRate: 0.6 });
    await setAddress(accepting.url);
    await testConnection();
    await pickAndPreview(
      "5Y",
      /[\d,]+ rows? (\(and a header row\) )?× \d+ columns?|service failed|Could not reach|Rate limited|unreadable/,
    );
    await expectNoLeak("against the faulty sandbox");
    accepting.setFaults({ serverErrorRate: 0, rateLimitRate: 0, dropRate: 0, badJsonRate: 0 });

    await setAddress(echo.url);
    await testConnection();
    // The service's message is shown, with the key it quoted masked.
    await pickAndPreview("1Y", /Not entitled: .*with key \*\*\*/);
    await showView(watch.page, "Insights");
    await expectNoLeak("against the echoing service");
    expect(rejecting.stats().byStatus["401"] ?? 0).toBeGreaterThan(0);
  }, 90_000);

  it("the sandbox logs, and the page's console and errors, hold no key", () => {
    for (const sandbox of [accepting, rejecting])
      expect(leaks(SENTINEL, JSON.stringify(sandbox.requestLog()))).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });
});
