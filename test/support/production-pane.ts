/**
 * The production pane: `npm run build` as a firm would run it (target
 * production: office.js from Microsoft's CDN, the production CSP), built into
 * a temporary folder (dist/ keeps the test build) and served on 127.0.0.1,
 * with a fresh headless Chromium profile. `useProductionPane()` builds and
 * starts it in a beforeAll and removes it all in an afterAll.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchBrowser, serveStatic, type BrowserSession, type StaticServer } from "./browser";
import { useWorld } from "./use-world";

const ROOT = path.resolve(__dirname, "../..");

/** The production build of this checkout in `outDir`; rejects with webpack's output when it fails. */
export function buildProduction(outDir: string, env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(ROOT, "node_modules", ".bin", "webpack"),
      ["--mode", "production", "--output-path", outDir],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, MD_ADDIN_URL: "https://addin.example.com", MD_BASE_URL: "/api", ...env },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`the production build failed (${code}):\n${output}`)),
    );
  });
}

export interface ProductionPane {
  /** The production build's folder. */
  dir: string;
  /** It, served on 127.0.0.1: the pane is at `${pane.url}/taskpane.html`. */
  pane: StaticServer;
  session: BrowserSession;
  close(): Promise<void>;
}

export async function startProductionPane(): Promise<ProductionPane> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "md-production-build-"));
  try {
    await buildProduction(dir);
    const pane = await serveStatic(dir);
    const session = await launchBrowser();
    return {
      dir,
      pane,
      session,
      async close() {
        await session.close();
        await pane.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The production pane for the suite or describe block (the build can take a few minutes on a loaded machine). */
export function useProductionPane(timeoutMs = 300_000): ProductionPane {
  return useWorld("the production pane (useProductionPane)", startProductionPane, timeoutMs);
}
