/**
 * No module of src/ imports itself back through others: an import circle
 * makes the load order decide what a module sees at start-up, and says two
 * files are one mechanism cut in the wrong place. The graph is read from the
 * sources as written (relative `import`/`export … from`, type-only imports
 * included: a type circle is the same design smell), and the strongly
 * connected components are found with Tarjan's algorithm.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

const IMPORT_FROM = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']*)["']/gm;

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(existsSync);
}

/** The import graph of a folder: file → the files of ours it imports. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, "utf8");
    const deps = [...text.matchAll(IMPORT_FROM)].flatMap((m) => resolveImport(file, m[1]!) ?? []);
    graph.set(file, deps);
  }
  return graph;
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

  it("reads the real graph (api's door imports the client)", () => {
    const graph = importGraph(path.join(root, "src"));
    expect(graph.get(path.join(root, "src/api/index.ts"))).toContain(path.join(root, "src/api/client.ts"));
  });

  it("src/ has none", () => {
    const circles = importCircles(importGraph(path.join(root, "src")));
    expect(circles.map((files) => files.map((f) => path.relative(root, f)))).toEqual([]);
  });
});
