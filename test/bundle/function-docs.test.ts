/**
 * docs/functions.md is the README's function reference: it must describe
 * exactly what the built functions.json declares, or Excel's help links and
 * the reference drift apart; and its checked examples (```sandbox blocks) must
 * give, through the built bundle and the sandbox, the results they show.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { cellValue, readMetadata } from "../../harness/bundle";
import { cellMismatch, parseExamples, parseFormula } from "../../harness/doc-examples";
import { useBundle } from "../support/bundle";

const doc = readFileSync(path.resolve(__dirname, "../../docs/functions.md"), "utf8");
const metadata = readMetadata();
const examples = parseExamples(doc);

/** The text of the `## MD.<ID>` section, up to the next `## ` heading. */
function section(id: string): string {
  const start = doc.indexOf(`\n## MD.${id}\n`);
  if (start < 0) return "";
  const next = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, next < 0 ? undefined : next);
}

/** The options a section's `| option | … |` table lists. */
function documentedOptions(id: string): string[] {
  const options: string[] = [];
  let inTable = false;
  for (const line of section(id).split("\n")) {
    if (line.startsWith("| option |")) inTable = true;
    else if (!line.startsWith("|")) inTable = false;
    else if (inTable) {
      const name = /^\| `([a-z_]+)` \|/.exec(line)?.[1];
      if (name) options.push(name);
    }
  }
  return options;
}

describe("docs/functions.md", () => {
  it.each(metadata.map((fn) => [fn.id, fn] as const))(
    "documents MD.%s with its signature and every parameter",
    (id, fn) => {
      const text = section(id);
      expect(text).not.toBe("");
      const signature = fn.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(", ");
      expect(text).toContain(`\`=MD.${id}(${signature})\``);
      for (const param of fn.parameters)
        expect(text).toContain(`| \`${param.name}\` | ${param.optional ? "no" : "yes"} |`);
    },
  );

  it("documents no function that functions.json lacks", () => {
    const documented = [...doc.matchAll(/^## MD\.([A-Z_.]+)$/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(metadata.map((fn) => fn.id).sort());
  });

  it("every help link points at its function's section", () => {
    for (const fn of metadata.filter((f) => f.id !== "VERSION")) {
      expect(fn.helpUrl).toMatch(new RegExp(`#md${fn.id.toLowerCase()}$`));
    }
  });

  it("every function with options documents them in an options table", () => {
    for (const fn of metadata.filter((f) => f.parameters.some((p) => p.name === "options")))
      expect(documentedOptions(fn.id).length).toBeGreaterThan(0);
  });

  it.each(metadata.flatMap((fn) => documentedOptions(fn.id).map((option) => [fn.id, option] as const)))(
    "MD.%s's option %s has a checked example",
    (id, option) => {
      const uses = examples.filter((e) => e.section === id && new RegExp(`\\b${option}=`, "i").test(e.formula));
      expect(uses.map((e) => e.formula)).not.toEqual([]);
    },
  );
});

describe("README's function table", () => {
  const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");

  it("lists exactly the functions functions.json declares, each with its signature", () => {
    const rows = [...readme.matchAll(/^\| `(MD\.[A-Z_.]+\([^`]*\))` \|/gm)].map((m) => m[1]).sort();
    const signatures = metadata
      .map((fn) => `MD.${fn.id}(${fn.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(", ")})`)
      .sort();
    expect(rows).toEqual(signatures);
  });
});

describe("checked examples of docs/functions.md, against the sandbox", () => {
  const { bundle } = useBundle({ quiet: true, insightFirstCallDelayMs: 10 });

  it("the reference has checked examples", () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  it.each(examples.map((e) => [e.formula, e] as const))("%s", async (_formula, example) => {
    const { id, args } = parseFormula(example.formula);
    // Examples under a function's heading are that function's; the shared sections may show any.
    if (example.section) expect(example.section).toBe(id);
    const actual = await cellValue(bundle, id, args);
    const problems: string[] = [];
    if (example.expected.kind === "value") {
      const problem = cellMismatch(actual, example.expected.text);
      if (problem) problems.push(problem);
    } else {
      const { rows, more } = example.expected;
      if (!Array.isArray(actual)) throw new Error(`expected a table, got ${JSON.stringify(actual)}`);
      const table = actual as unknown[][];
      if (more ? table.length < rows.length : table.length !== rows.length)
        problems.push(`expected ${rows.length}${more ? " or more" : ""} rows, got ${table.length}`);
      rows.forEach((row, r) => {
        if (table[r]?.length !== row.length)
          problems.push(`row ${r + 1}: expected ${row.length} cells, got ${table[r]?.length}`);
        row.forEach((text, c) => {
          const problem = cellMismatch(table[r]?.[c], text);
          if (problem) problems.push(`row ${r + 1}, column ${c + 1}: ${problem}`);
        });
      });
    }
    expect(problems).toEqual([]);
  });
});
