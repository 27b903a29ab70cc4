/**
 * Headless Chromium (Debian's package) driven by playwright-core, and a
 * static server for dist/ on 127.0.0.1: what the browser suites
 * (test/support/browser.ts, with jest's set-up around it) and the browser
 * benchmarks share. Nothing here needs jest.
 *
 * Chromium is found through CHROMIUM_PATH, or on the PATH.
 */
import { execFileSync } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { DIST } from "./bundle";
import { listenLocal, type LocalServer } from "./local-server";

function which(name: string): string | null {
  try {
    return execFileSync("which", [name], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

export const CHROMIUM_PATH: string | null =
  (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null) ??
  which("chromium") ??
  which("chromium-browser") ??
  which("google-chrome");

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface BrowserSession {
  browser: Browser | null;
  context: BrowserContext;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Accept self-signed certificates (the test identity provider's: MSAL takes only https authorities). */
  ignoreHTTPSErrors?: boolean;
}

/** A fresh profile each time, so no state leaks between suites. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserSession> {
  if (!CHROMIUM_PATH) throw new Error("no Chromium");
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), "md-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 420, height: 900 },
    ...(options.ignoreHTTPSErrors ? { ignoreHTTPSErrors: true } : {}),
  });
  return {
    browser: context.browser(),
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".xml": "application/xml",
  ".map": "application/json",
  ".css": "text/css",
};

export type StaticServer = LocalServer;

/** Serves a folder (default dist/) on 127.0.0.1 with an ephemeral port. */
export async function serveStatic(root = DIST): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = path.join(root, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  return listenLocal(server);
}

/** True when a URL stays on this machine (loopback, or a browser-internal scheme). */
export function isLocalUrl(url: string): boolean {
  if (/^(data|blob|about|chrome|chrome-extension):/.test(url)) return true;
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
}
