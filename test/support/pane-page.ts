/**
 * Driving the built task pane (dist/taskpane.html) in headless Chromium for
 * the proving suites: open it with settings preset in localStorage (where the
 * pane keeps them outside Office), record dialogs, navigations, page errors
 * and console lines, and inspect the DOM and layout.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import type { WorkbookRecording, WorkbookStandIn } from "./workbook-stand-in";
import { workbookStandInSource } from "./workbook-stand-in/page-source";
import type { BrowserSession } from "./browser";

export { recordFunctionsInPage } from "../../harness/functions-in-page";
export { workbookStandInSource };

/** Test runs write screenshots to test-results/; MD_WRITE_SCREENSHOTS=1 updates the ones kept in docs/. */
export const SCREENSHOTS = path.resolve(
  __dirname,
  process.env.MD_WRITE_SCREENSHOTS === "1" ? "../../docs/screenshots" : "../../test-results/screenshots",
);

/** A workbook of one empty sheet with `cell` selected: where Insert writes. */
export function emptyWorkbook(cell: string): WorkbookRecording {
  return {
    sheets: [{ name: "Sheet1", cells: {} }],
    activeSheet: "Sheet1",
    selection: { sheet: "Sheet1", areas: [cell] },
    results: {},
  };
}

export interface PaneWatch {
  page: Page;
  dialogs: string[];
  navigations: string[];
  pageErrors: string[];
  console: string[];
}

/** Records what the page does from now on: dialogs (dismissed), its own navigations, page errors, console lines. */
export function watchPage(page: Page): PaneWatch {
  const watch: PaneWatch = { page, dialogs: [], navigations: [], pageErrors: [], console: [] };
  page.on("dialog", (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // The pane's own page only: office.js's hidden telemetry frame navigates on its own (to an error page when offline).
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) watch.navigations.push(frame.url());
  });
  page.on("pageerror", (error) => watch.pageErrors.push(error.message));
  page.on("console", (message) => watch.console.push(`${message.type()}: ${message.text()}`));
  return watch;
}

/** Loads the built pane and waits until it has rendered its heading. */
export async function gotoPane(page: Page, paneUrl: string): Promise<void> {
  await page.goto(`${paneUrl}/taskpane.html`);
  await page.getByRole("heading", { name: "Market Data" }).waitFor();
}

/** Opens the pane with `md.baseUrl` / `md.apiKey` already stored. */
export async function openPane(
  session: BrowserSession,
  paneUrl: string,
  settings: { baseUrl: string; apiKey: string | null },
  options: { workbook?: WorkbookRecording } = {},
): Promise<PaneWatch> {
  const page = await session.context.newPage();
  if (options.workbook) await addWorkbookStandIn(page, options.workbook);
  const watch = watchPage(page);
  await page.addInitScript((s: { baseUrl: string; apiKey: string | null }) => {
    // The pane's own document only (not frames), and once: a reload must keep what the pane itself saved.
    if (window !== window.top || location.pathname !== "/taskpane.html") return;
    if (sessionStorage.getItem("md.preset")) return;
    sessionStorage.setItem("md.preset", "1");
    localStorage.setItem("md.baseUrl", s.baseUrl);
    if (s.apiKey === null) localStorage.removeItem("md.apiKey");
    else localStorage.setItem("md.apiKey", s.apiKey);
  }, settings);
  await gotoPane(page, paneUrl);
  return watch;
}

/** Selects the view's tab (by its label: Settings, Picker, Insights, or any view the pane adds) and waits for its panel. */
export async function showView(page: Page, name: string): Promise<void> {
  await page.getByRole("tab", { name }).click();
  await page.locator(`[role=tabpanel]:not([hidden])`).first().waitFor();
}

/** Templates ▸ Insert a template as a new sheet, waiting until the pane says the sheet was added. */
export async function insertTemplate(page: Page, name: string): Promise<void> {
  await showView(page, "Templates");
  const card = page.getByTestId("template-card").filter({ hasText: name });
  await card.getByRole("button", { name: `Insert the ${name} template as a new sheet` }).click();
  await card
    .getByTestId("template-outcome")
    .getByText(/Added the sheet/)
    .waitFor({ timeout: 30_000 });
}

export interface LayoutReport {
  clientWidth: number;
  scrollWidth: number;
  /** Elements sticking out past the pane's right edge, not clipped by a scrolling or hiding ancestor. */
  overflowing: string[];
}

/**
 * Whether anything sticks out of the pane horizontally: an element's box, or
 * a line of text, past the right edge, unless an ancestor that scrolls or
 * clips (and itself fits) holds it.
 */
export function layout(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
    const clipped = (element: Element) => {
      for (let a = element.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible" && a.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    const found = new Map<Element, number>();
    for (const element of Array.from(document.body.querySelectorAll("*"))) {
      const rect = element.getBoundingClientRect();
      if (rect.width > 0 && rect.right > width + 1 && !clipped(element)) found.set(element, rect.right);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim()) continue;
      range.selectNodeContents(node);
      const right = Math.max(0, ...Array.from(range.getClientRects()).map((r) => r.right));
      if (right > width + 1 && !clipped(node as unknown as Element) && !clipped(parent)) found.set(parent, right);
    }
    // Report the innermost: an element whose descendant is reported is only its container.
    const innermost = [...found].filter(
      ([element]) => ![...found.keys()].some((other) => other !== element && element.contains(other)),
    );
    return {
      clientWidth: width,
      scrollWidth: root.scrollWidth,
      overflowing: innermost
        .slice(0, 10)
        .map(
          ([element, right]) =>
            `<${element.tagName.toLowerCase()}> right=${Math.round(right)} "${(element.textContent ?? "").slice(0, 50)}"`,
        ),
    };
  });
}

/**
 * The page's markup and text with every input's and textarea's value left out
 * (a masked key input holds the key by design): React mirrors a controlled
 * input's value into its value attribute, so the markup is taken from a clone
 * without those attributes. The live values are returned apart.
 */
export function pageTextOutsideInputs(page: Page): Promise<{ html: string; text: string; inputValues: string[] }> {
  return page.evaluate(() => {
    const inputValues = Array.from(document.querySelectorAll("input, textarea")).map(
      (el) => (el as HTMLInputElement | HTMLTextAreaElement).value,
    );
    const clone = document.documentElement.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("input, textarea").forEach((el) => el.removeAttribute("value"));
    return {
      html: clone.outerHTML,
      text: document.body.innerText + "\n" + (document.body.textContent ?? ""),
      inputValues,
    };
  });
}

export interface WorkbookStandInInit {
  source: string;
  recording: WorkbookRecording;
  /** Stored as `md.apiKey` on every load (null removes it); undefined leaves the stored settings alone. */
  apiKey?: string | null;
  /** Stored as `md.baseUrl` on every load when given. */
  baseUrl?: string;
}

/**
 * Runs in the page before its scripts, installing the recorded workbook
 * (harness/workbook-stand-in/, its modules in one function: `source`,
 * workbookStandInSource()) as `Excel` and `Office`. Self-contained:
 * Playwright sends its source text. office.js still loads, finds no host and
 * would replace `window.Office`; the stand-in plays the host, so it keeps the name.
 */
export function installWorkbookInPage({ source, recording, apiKey, baseUrl }: WorkbookStandInInit): void {
  // Init scripts run in every frame; only the pane's own page plays Excel.
  if (window !== window.top) return;
  const install = (0, eval)(`(${source})`) as (
    target: Record<string, unknown>,
    recording: WorkbookRecording,
  ) => unknown;
  const globals: Record<string, unknown> = {};
  (window as unknown as { __workbook: unknown }).__workbook = install(globals, recording);
  // Outside Office the settings store keeps the key in localStorage.
  if (apiKey) localStorage.setItem("md.apiKey", apiKey);
  else if (apiKey === null) localStorage.removeItem("md.apiKey");
  if (baseUrl) localStorage.setItem("md.baseUrl", baseUrl);
  // office.js writes its own members onto whatever `Office` is (actions, context, …); the stand-in's stay.
  const guarded = new WeakMap<object, object>();
  const guard = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (!guarded.has(value)) {
      guarded.set(
        value,
        new Proxy(value, {
          get: (target, key) => guard(Reflect.get(target, key)),
          set: (target, key, v) => (key in target ? true : Reflect.set(target, key, v)),
        }),
      );
    }
    return guarded.get(value);
  };
  for (const name of ["Office", "Excel"]) {
    const standIn = guard(globals[name]);
    Object.defineProperty(window, name, { configurable: true, get: () => standIn, set: () => {} });
  }
}

/** Gives the page (before its next load) a recorded workbook in place of Excel. */
export async function addWorkbookStandIn(
  page: Page,
  recording: WorkbookRecording,
  apiKey?: string | null,
): Promise<void> {
  await page.addInitScript(installWorkbookInPage, { source: workbookStandInSource(), recording, apiKey });
}

export type PageWorkbook = { __workbook: WorkbookStandIn };

/**
 * Starts the page hidden, as Excel starts the shared runtime's web view for a
 * document set to load the add-in ("Load the add-in but do not show UI",
 * Office.StartupBehavior) or for a ribbon command; `showPane(page)` then
 * shows it with a visibilitychange event, as opening the pane does.
 */
export async function startHidden(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { visibility: "hidden" as DocumentVisibilityState };
    (window as unknown as { __pane: typeof state }).__pane = state;
    Object.defineProperty(Document.prototype, "visibilityState", { get: () => state.visibility, configurable: true });
    Object.defineProperty(Document.prototype, "hidden", {
      get: () => state.visibility === "hidden",
      configurable: true,
    });
  });
}

/** Shows a page started with `startHidden`. */
export async function showPane(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __pane: { visibility: DocumentVisibilityState } }).__pane.visibility = "visible";
    document.dispatchEvent(new Event("visibilitychange"));
  });
}
