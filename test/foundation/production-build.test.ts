/**
 * What a production build may contain differs from a development one: it must
 * name where it is served (MD_ADDIN_URL), and its pane's CSP admits office.js's
 * own frames but no plain-http loopback service.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildProduction } from "../support/production-pane";

const ROOT = path.resolve(__dirname, "../..");

/** Evaluates `expression` in plain Node with `config` = webpack.config.js, as webpack loads it (jest cannot: ESM deps). */
function withConfig(expression: string, env: Record<string, string | undefined> = {}) {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const result = spawnSync(
    process.execPath,
    ["-e", `const config = require("./webpack.config.js"); console.log(JSON.stringify(${expression}));`],
    { cwd: ROOT, env: childEnv, encoding: "utf8" },
  );
  return {
    ok: result.status === 0,
    value: result.status === 0 ? JSON.parse(result.stdout) : undefined,
    stderr: result.stderr,
  };
}

const webpackConfig = {
  paneCsp: (options: { production: boolean; evalSourceMaps: boolean }): string =>
    withConfig(`config.paneCsp(${JSON.stringify(options)})`).value as string,
};

function directive(csp: string, name: string): string {
  return (
    csp
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `)) ?? ""
  );
}

describe("a production build", () => {
  it("fails loudly without MD_ADDIN_URL instead of shipping a manifest that points at localhost", () => {
    const failed = withConfig(`config({}, { mode: "production" }).mode`, { MD_ADDIN_URL: undefined });
    expect(failed.ok).toBe(false);
    expect(failed.stderr).toMatch(
      /The production build needs MD_ADDIN_URL, the https address the add-in will be served from/,
    );
    // Development and test builds keep the local address.
    expect(withConfig(`config({}, { mode: "development" }).mode`, { MD_ADDIN_URL: undefined }).value).toBe(
      "development",
    );
    expect(
      withConfig(`config({ target: "test" }, { mode: "production" }).mode`, { MD_ADDIN_URL: undefined }).value,
    ).toBe("production");
  });

  it("npm run build without MD_ADDIN_URL: one paragraph saying what to set, with an example; no stack trace; exit 1", () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.MD_ADDIN_URL;
    const out = mkdtempSync(path.join(os.tmpdir(), "md-build-no-url-"));
    try {
      const build = spawnSync(
        path.join(ROOT, "node_modules", ".bin", "webpack"),
        ["--mode", "production", "--output-path", out],
        { cwd: ROOT, env, encoding: "utf8" },
      );
      expect(build.status).toBe(1);
      const paragraphs = build.stderr.trim().split(/\n\s*\n/);
      expect(paragraphs).toHaveLength(1);
      expect(paragraphs[0]).toContain("The production build needs MD_ADDIN_URL");
      expect(paragraphs[0]).toContain(
        "MD_ADDIN_URL=https://addin.example.com MD_BASE_URL=https://<service host> npm run build",
      );
      expect(build.stderr).not.toMatch(/^\s+at /m);
      expect(build.stderr).not.toContain("webpack.config.js:");
      expect(build.stderr).not.toContain("Error:");
      // Nothing was built.
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("builds with MD_ADDIN_URL set", () => {
    const built = withConfig(`config({}, { mode: "production" }).mode`, { MD_ADDIN_URL: "https://addin.example.com/" });
    expect(built).toMatchObject({ ok: true, value: "production" });
  });

  it("lets office.js's host frames load and talks to no plain-http loopback service", () => {
    const csp = webpackConfig.paneCsp({ production: true, evalSourceMaps: false });
    expect(directive(csp, "frame-src")).toBe(
      "frame-src 'self' https://appsforoffice.microsoft.com https://telemetryservice.firstpartyapps.oaspapps.com",
    );
    expect(directive(csp, "connect-src")).toBe("connect-src 'self' https:");
    expect(directive(csp, "script-src")).toBe("script-src 'self' https://appsforoffice.microsoft.com");
  });
});

describe("the demo workbook (src/taskpane/demo/)", () => {
  /** The built scripts' names and whether any holds the demo's banner or its stand-in's functions runtime. */
  const demoIn = (dir: string) => {
    const scripts = readdirSync(dir).filter((f) => f.endsWith(".js"));
    return {
      chunks: scripts.filter((f) => /demo/i.test(f)),
      text: scripts.filter((f) => /Demo workbook|_association/.test(readFileSync(path.join(dir, f), "utf8"))),
    };
  };

  it("is its own chunk in the test build (dist/)", () => {
    const found = demoIn(path.join(ROOT, "dist"));
    expect(found.chunks).toEqual([expect.stringMatching(/^demo-workbook\.[0-9a-f]{8}\.js$/)]);
    expect(found.text).toEqual(found.chunks);
  });

  it("is not in a production build at all", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "md-production-demo-"));
    try {
      await buildProduction(dir);
      expect(demoIn(dir)).toEqual({ chunks: [], text: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe("development and test builds", () => {
  it("allow the local sandbox over plain http and keep every frame on this machine", () => {
    const csp = webpackConfig.paneCsp({ production: false, evalSourceMaps: true });
    expect(directive(csp, "connect-src")).toBe("connect-src 'self' https: http://127.0.0.1:* http://localhost:*");
    expect(directive(csp, "frame-src")).toBe("frame-src 'self'");
    expect(directive(csp, "script-src")).toBe("script-src 'self' https://appsforoffice.microsoft.com 'unsafe-eval'");
  });

  it("the built dist/taskpane.html (test target) carries that policy", () => {
    const html = readFileSync(path.join(ROOT, "dist", "taskpane.html"), "utf8");
    const meta = /http-equiv=["']?Content-Security-Policy["']?\s+content=(["'])(.*?)\1/i.exec(html)?.[2];
    expect(meta).toBe(webpackConfig.paneCsp({ production: false, evalSourceMaps: false }));
  });
});
