/**
 * No module of src/ (nor of sandbox/, harness/, bench/, scripts/) imports itself back through others: an import circle
 * makes the load order decide what a module sees at start-up, and says two
 * files are one mechanism cut in the wrong place. The graph is read from the
 * sources as written — relative `import`/`export … from`, `import type`
 * (a type circle is the same design smell), a bare `import "./x"`, and the
 * dynamic `import("./x")` of a lazy chunk (a chunk that imports its loader
 * back is one mechanism cut in two just the same) — and the strongly
 * connected components are found with Tarjan's algorithm.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** `import … from`, `import type … from`, `export … from`. */
const IMPORT_FROM = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']*)["']/gm;
/** `import "./x"`: for its effects only. */
const IMPORT_BARE = /^\s*import\s*["'](\.{1,2}\/[^"']*)["']/gm;
/** `import("./x")`, a lazy chunk (a webpack magic comment may stand before the path), or `typeof import("./x")`. */
const IMPORT_DYNAMIC = /\bimport\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)*["'](\.{1,2}\/[^"']*)["']\s*\)/g;

/** The relative paths a source imports, statically or dynamically, as written. */
function importsOf(text: string): string[] {
  return [IMPORT_FROM, IMPORT_BARE, IMPORT_DYNAMIC].flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

function resolveImport(from: string, spec: string, exists: (file: string) => boolean): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(exists);
}

/** The import graph of some sources (file → text): file → the files of ours it imports. */
function graphOf(sources: Map<string, string>): Map<string, string[]> {
  const exists = (file: string) => sources.has(file);
  return new Map(
    [...sources].map(([file, text]) => [
      file,
      importsOf(text).flatMap((spec) => resolveImport(file, spec, exists) ?? []),
    ]),
  );
}

/** The import graph of a folder. */
function importGraph(dir: string): Map<string, string[]> {
  return graphOf(new Map(sourceFiles(dir).map((file) => [file, readFileSync(file, "utf8")])));
}

/** The import circles: every strongly connected component of more than one file (or a file importing itself). */
function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe("import circles", () => {
  it("finds a circle when there is one (the detector works)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(importCircles(graph)).toEqual([["a", "b", "c"], ["e"]]);
  });

  it.each([
    ["a static import", 'import { b } from "./b";', ["./b"]],
    ["a type import", 'import type { B } from "../room/b";', ["../room/b"]],
    ["a re-export", 'export { b, type B } from "./b";', ["./b"]],
    ["a bare import", 'import "./polyfill";', ["./polyfill"]],
    ["a lazy chunk", 'const { b } = await import(/* webpackChunkName: "b" */ "./b");', ["./b"]],
    ["a type of a module", 'let m: typeof import("./b") | undefined;', ["./b"]],
    ["a package", 'import React from "react"; await import("@azure/msal-browser");', []],
  ])("reads %s", (_what, text, specs) => {
    expect(importsOf(text)).toEqual(specs);
  });

  it("finds a circle closed by a lazy chunk and a type import (the detector reads both)", () => {
    const sources = new Map([
      ["/src/sign-in.ts", 'const open = async () => (await import(/* webpackChunkName: "x" */ "./msal")).open;'],
      ["/src/msal.ts", 'import type { Session } from "./sign-in";\nexport const open = 1;'],
      ["/src/other.ts", 'import { open } from "./msal";'],
    ]);
    expect(importCircles(graphOf(sources))).toEqual([["/src/msal.ts", "/src/sign-in.ts"]]);
  });

  it("reads the real graph (api's door imports the client)", () => {
    const graph = importGraph(path.join(root, "src"));
    expect(graph.get(path.join(root, "src/api/index.ts"))).toContain(path.join(root, "src/api/client.ts"));
  });

  it.each(["src", "sandbox", "harness", "bench", "scripts"])("%s/ has none", (dir) => {
    const circles = importCircles(importGraph(path.join(root, dir)));
    expect(circles.map((files) => files.map((f) => path.relative(root, f)))).toEqual([]);
  });
});
