import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DIST, loadFunctionsBundle, readMetadata } from "../../harness/bundle";

const pkg = JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { version: string };

describe("dist/functions.js + dist/functions.json", () => {
  it("registers every function functions.json declares, in a context with no DOM", () => {
    const bundle = loadFunctionsBundle();
    const ids = bundle.metadata.map((m) => m.id).sort();
    expect(ids).toContain("VERSION");
    expect([...bundle.registered.keys()].sort()).toEqual(ids);
    expect(bundle.context.document).toBeUndefined();
  });

  it("MD.VERSION returns the package version through the JSDoc → metadata → bundle chain", async () => {
    const bundle = loadFunctionsBundle();
    await expect(bundle.call("VERSION")).resolves.toBe(pkg.version);
  });

  it("carries no task-pane UI code", () => {
    const code = readFileSync(path.join(DIST, "functions.js"), "utf8");
    expect(code).not.toMatch(/react-dom|FluentProvider|createRoot/);
  });

  it("leaves the client to functions.js: the pane's bundles carry no second copy", () => {
    const paneBundles = readdirSync(DIST).filter((f) => f.endsWith(".js.map") && !f.startsWith("functions."));
    expect(paneBundles.length).toBeGreaterThan(0);
    for (const map of paneBundles) {
      const sources = (JSON.parse(readFileSync(path.join(DIST, map), "utf8")) as { sources: string[] }).sources;
      expect(sources.filter((s) => /src\/api\/(client|http\/transport|http\/retry)\.ts$/.test(s))).toEqual([]);
    }
  });

  it("links every function's help to an anchor of the reference page the build emits", () => {
    const page = readFileSync(path.join(DIST, "docs", "functions.html"), "utf8");
    for (const fn of readMetadata()) {
      const url = new URL(fn.helpUrl ?? "");
      expect(url.pathname).toBe("/docs/functions.html");
      expect(page).toMatch(new RegExp(`<h2 id="?${url.hash.slice(1)}"?>`));
    }
  });

  it("describes every function and parameter for Excel's autocomplete", () => {
    for (const fn of readMetadata()) {
      expect(fn.description?.length ?? 0).toBeGreaterThan(10);
      for (const param of fn.parameters) expect(param.description?.length ?? 0).toBeGreaterThan(3);
    }
  });
});
