/**
 * A refresh with the pane closed: 1,000 MD.LATEST cells in a Chromium page
 * that really is hidden, against the same cells in the same page visible.
 *
 * Excel's shared runtime is a web page; with the task pane closed it is a
 * hidden one, and Chromium throttles a hidden page's timers: wake-ups at most
 * once a second, and once a minute for chained timers after five minutes
 * hidden (https://developer.chrome.com/blog/timer-throttling-in-chrome-88).
 *
 * How the page is made hidden, for real: Chromium is started here without
 * the switches playwright-core's own launch adds (it turns timer throttling
 * and renderer backgrounding off: --disable-background-timer-throttling,
 * --disable-renderer-backgrounding, --disable-backgrounding-occluded-windows),
 * and playwright attaches over CDP with `noDefaults`, so it does not turn on
 * focus emulation (which keeps every page it drives visible). A second tab
 * opened in front then hides the add-in's page: `document.visibilityState`
 * reads "hidden" there and a 10 ms timer takes about a second (both checked
 * before the cells run; a run whose page is not hidden stops with an error).
 *
 * The built pane (dist/taskpane.html) with the functions functions.js
 * associates recorded in the same page (one thread, as the shared runtime),
 * the store on Chromium's IndexedDB, the sandbox in its own process at 100 ms
 * latency. The cells arrive as Excel delivers a recalculation, 500 per task
 * (one as-of date each), the tasks posted as messages, as Excel's calls reach
 * the runtime (not timers, which the hidden page would throttle themselves).
 *
 * Each case runs cold (a fresh profile: every cell from the network) and warm
 * (a reopened workbook: the same cells run once in the page visible, their
 * answers written to the store, then the page reloaded, hidden or not, and
 * the cells run again, answered from the store on Chromium's IndexedDB).
 *
 *   npx tsx bench/hidden-runtime.ts                  this build (dist/)
 *   npx tsx bench/hidden-runtime.ts --dist <dir>     another build's dist/ (the base, say)
 *   npx tsx bench/hidden-runtime.ts --runs 3         each case three times (median)
 *
 * Needs a build (`npx webpack --mode production --env target=test`) and
 * Chromium (CHROMIUM_PATH or on the PATH). Prints figures; asserts nothing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { DIST } from "../harness/bundle";
import { DEMO_API_KEY } from "../sandbox/server";
import { recordFunctionsInPage } from "../harness/functions-in-page";
import { CHROMIUM_ARGS, CHROMIUM_PATH, serveStatic } from "../harness/chromium";
import { SCALE_METRICS, scaleSymbols, startScaleSandbox } from "./scale";
import { median } from "./stats";

/** 100 symbols × 5 metrics × 2 as-of dates. */
export const HIDDEN_CELLS = 1_000;
const DATES = 2;

export interface HiddenRunFigures {
  visibility: string;
  /** How long a 10 ms timer took in the page just before the cells ran. */
  timerMs: number;
  /** How long a 0 ms timer took there. */
  zeroTimerMs: number;
  requests: number;
  wallMs: number;
  failures: number;
}

/** Starts the cells in the page, one as-of date per message task; `window.__burst` says when they are done. */
function burst(symbols: string[], today: string): string {
  return `(() => {
  const w = window;
  const fns = w.__mdFunctions;
  const state = (w.__burst = { done: false, start: performance.now(), wallMs: 0, failures: 0 });
  const channel = new MessageChannel();
  const tasks = [];
  channel.port1.onmessage = () => tasks.shift()();
  const nextTask = () => new Promise((resolve) => { tasks.push(resolve); channel.port2.postMessage(null); });
  (async () => {
    const calls = [];
    for (let d = 0; d < ${DATES}; d++) {
      if (d > 0) await nextTask();
      const asOf = new Date(Date.parse(${JSON.stringify(today)}) - d * 864e5).toISOString().slice(0, 10);
      for (const symbol of ${JSON.stringify(symbols)})
        for (const metric of ${JSON.stringify(SCALE_METRICS)}) {
          const invocation = { address: "Sheet1!A1", isInValuePreview: false, onCanceled: null };
          calls.push(Promise.resolve(fns.LATEST(symbol, metric, asOf, null, invocation)).catch(() => (state.failures += 1)));
        }
    }
    await Promise.all(calls);
    state.wallMs = performance.now() - state.start;
    state.done = true;
  })();
})()`;
}

/**
 * How long an `ms` timer takes in the page now (the mean of two in a row): a
 * 10 ms one about 10 visible and up to a second hidden; a 0 ms one no time
 * either way (Chromium runs a 0 ms timer outside a timer chain unthrottled).
 */
const timerProbe = (ms: number) => `(async () => {
  const start = performance.now();
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setTimeout(resolve, ${ms}));
  return (performance.now() - start) / 2;
})()`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Chromium with its own default switches (throttling on), and playwright attached without its overrides. */
async function startChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), "md-hidden-"));
  const proc: ChildProcess = spawn(
    CHROMIUM_PATH!,
    [...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${userDataDir}`, "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("hidden-runtime: Chromium did not start within 30 s")), 30_000);
    proc.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const found = /DevTools listening on (ws:\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    proc.once("exit", () => reject(new Error(`hidden-runtime: Chromium exited: ${text.slice(-500)}`)));
  });
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      proc.kill();
      await new Promise((resolve) => (proc.exitCode === null ? proc.once("exit", resolve) : resolve(null)));
      // Chromium's helper processes may still be writing the profile: a leftover temporary folder is no failure.
      try {
        rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // left in the temporary folder
      }
    },
  };
}

async function waitFor(page: Page, expression: string, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`hidden-runtime: ${what} not within ${ms / 1000} s`);
    await sleep(100);
  }
}

/** Runs the cells in the page and waits for them all. */
async function runCells(page: Page, symbols: string[], today: string): Promise<{ wallMs: number; failures: number }> {
  await page.evaluate(burst(symbols, today));
  await waitFor(page, "window.__burst.done", "the cells", 600_000);
  return (await page.evaluate("window.__burst")) as { wallMs: number; failures: number };
}

/** The store's writes wait 50 ms and then take a few transactions: two seconds is ample before a reload. */
const WRITES_SETTLED_MS = 2_000;

/**
 * One run: a fresh profile, the page visible or hidden behind another tab.
 * Cold: the cells from the network. Warm: the cells run once visible (the
 * store filled), then the page reloaded (a reopened workbook), hidden or not,
 * and the cells run again from the store.
 */
export async function runHidden(hidden: boolean, dist = DIST, warm = false): Promise<HiddenRunFigures> {
  const today = new Date().toISOString().slice(0, 10);
  const sandbox = await startScaleSandbox(today, 1_000);
  const pane = await serveStatic(dist);
  const chrome = await startChromium();
  try {
    const symbols = await scaleSymbols(sandbox.url);
    const context = chrome.browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    // tsx names the functions it compiles with a helper (__name) that the page does not have.
    await page.addInitScript("globalThis.__name = (f) => f;");
    await recordFunctionsInPage(page, { baseUrl: sandbox.url, apiKey: DEMO_API_KEY });
    await page.goto(`${pane.url}/taskpane.html`);
    const registered = "typeof window.__mdFunctions?.LATEST === 'function'";
    await waitFor(page, registered, "functions.js registered", 60_000);
    if (warm) {
      await runCells(page, symbols, today);
      await sleep(WRITES_SETTLED_MS);
    }
    if (hidden) {
      await context.newPage(); // in front: the add-in's page is now a background tab
      await waitFor(page, "document.visibilityState === 'hidden'", "the page hidden", 10_000);
    }
    if (warm) {
      await page.reload();
      await waitFor(page, registered, "functions.js registered again", 60_000);
    }
    const visibility = (await page.evaluate("document.visibilityState")) as string;
    const timerMs = (await page.evaluate(timerProbe(10))) as number;
    const zeroTimerMs = (await page.evaluate(timerProbe(0))) as number;
    if (hidden && (visibility !== "hidden" || timerMs < 200))
      throw new Error(`hidden-runtime: the page is not hidden and throttled (${visibility}, ${timerMs} ms timers)`);
    await sandbox.reset();
    const run = await runCells(page, symbols, today);
    return {
      visibility,
      timerMs,
      zeroTimerMs,
      requests: (await sandbox.stats()).requests,
      wallMs: run.wallMs,
      failures: run.failures,
    };
  } finally {
    await chrome.close();
    await pane.close();
    await sandbox.close();
  }
}

/** The median run of `runs` (by wall time), for each case, cold or warm (see runHidden). */
export async function measureHidden(
  dist: string,
  runs: number,
  warm = false,
): Promise<{ visible: HiddenRunFigures; hidden: HiddenRunFigures }> {
  const pick = (all: HiddenRunFigures[]) => {
    const mid = median(all.map((r) => r.wallMs));
    return all.reduce((a, b) => (Math.abs(b.wallMs - mid) < Math.abs(a.wallMs - mid) ? b : a));
  };
  const visible: HiddenRunFigures[] = [];
  const hidden: HiddenRunFigures[] = [];
  for (let i = 0; i < runs; i++) {
    visible.push(await runHidden(false, dist, warm));
    hidden.push(await runHidden(true, dist, warm));
  }
  return { visible: pick(visible), hidden: pick(hidden) };
}

async function main(): Promise<void> {
  const distAt = process.argv.indexOf("--dist");
  const dist = distAt > 0 ? path.resolve(process.argv[distAt + 1]!) : DIST;
  const runsAt = process.argv.indexOf("--runs");
  const runs = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1])) : 1;
  if (!CHROMIUM_PATH) {
    console.log("hidden-runtime: skipped, no Chromium found (set CHROMIUM_PATH or install Debian's chromium).");
    return;
  }
  const cold = await measureHidden(dist, runs);
  const warm = await measureHidden(dist, runs, true);
  console.log(
    `\n${HIDDEN_CELLS.toLocaleString("en-US")} MD.LATEST cells in headless Chromium, the page visible and hidden (${path.relative(process.cwd(), dist) || "."}; median of ${runs})\n`,
  );
  console.log(
    "| store | page | visibilityState | a 10 ms timer took | a 0 ms timer took | requests | wall | failures |\n|---|---|---|---:|---:|---:|---:|---:|",
  );
  for (const [store, name, r] of [
    ["cold", "visible", cold.visible],
    ["cold", "hidden (a tab in front)", cold.hidden],
    ["warm (reopened)", "visible", warm.visible],
    ["warm (reopened)", "hidden (a tab in front)", warm.hidden],
  ] as const) {
    console.log(
      `| ${store} | ${name} | ${r.visibility} | ${Math.round(r.timerMs)} ms | ${r.zeroTimerMs.toFixed(1)} ms | ${r.requests} | ${Math.round(r.wallMs).toLocaleString("en-US")} ms | ${r.failures} |`,
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
