/**
 * Driving the built task pane (dist/taskpane.html) in headless Chromium for
 * the proving suites: open it with settings preset in localStorage (where the
 * pane keeps them outside Office), record dialogs, navigations, page errors
 * and console lines, and inspect the DOM and layout.
 */
import type { Page } from "playwright-core";
import type { BrowserSession } from "../../support/browser";

export interface PaneWatch {
  page: Page;
  dialogs: string[];
  navigations: string[];
  pageErrors: string[];
  console: string[];
}

/** Opens the pane with `md.baseUrl` / `md.apiKey` already stored. */
export async function openPane(
  session: BrowserSession,
  paneUrl: string,
  settings: { baseUrl: string; apiKey: string | null },
): Promise<PaneWatch> {
  const page = await session.context.newPage();
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
  await page.addInitScript((s: { baseUrl: string; apiKey: string | null }) => {
    // The pane's own document only (not frames), and once: a reload must keep what the pane itself saved.
    if (window !== window.top || location.pathname !== "/taskpane.html") return;
    if (sessionStorage.getItem("md.preset")) return;
    sessionStorage.setItem("md.preset", "1");
    localStorage.setItem("md.baseUrl", s.baseUrl);
    if (s.apiKey === null) localStorage.removeItem("md.apiKey");
    else localStorage.setItem("md.apiKey", s.apiKey);
  }, settings);
  await page.goto(`${paneUrl}/taskpane.html`);
  await page.getByRole("heading", { name: "Market Data" }).waitFor();
  return watch;
}

export async function showView(page: Page, name: "Settings" | "Picker" | "Insights"): Promise<void> {
  await page.getByRole("tab", { name }).click();
  await page.locator(`[role=tabpanel]:not([hidden])`).first().waitFor();
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

/** The page's markup and text with every input's and textarea's value left out (a masked key input holds the key by design). */
export function pageTextOutsideInputs(page: Page): Promise<{ html: string; text: string; inputValues: string[] }> {
  return page.evaluate(() => {
    const inputValues = Array.from(document.querySelectorAll("input, textarea")).map(
      (el) => (el as HTMLInputElement | HTMLTextAreaElement).value,
    );
    // innerHTML never serialises an input's live value, only its value attribute: check that too.
    return {
      html: document.documentElement.outerHTML,
      text: document.body.innerText + "\n" + (document.body.textContent ?? ""),
      inputValues,
    };
  });
}
