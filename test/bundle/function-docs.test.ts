/**
 * docs/functions.md is the README's function reference: it must describe
 * exactly what the built functions.json declares, or Excel's help links and
 * the reference drift apart.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { readMetadata } from "../support/bundle";

const doc = readFileSync(path.resolve(__dirname, "../../docs/functions.md"), "utf8");
const metadata = readMetadata();

/** The text of the `## MD.<ID>` section, up to the next `## ` heading. */
function section(id: string): string {
  const start = doc.indexOf(`\n## MD.${id}\n`);
  if (start < 0) return "";
  const next = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, next < 0 ? undefined : next);
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
});
