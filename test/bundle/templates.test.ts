/**
 * Every formula of every template, evaluated as Excel would on the first
 * click: through the built dist/functions.js against the sandbox's demo
 * data, today. No cell may be an error value — a spilled table's cells
 * included — and a spilled table must not run into another of the
 * template's cells (Excel would show #SPILL!), nor lie under the template's
 * chart (a chart floats over cells: it would hide the table's columns).
 */
import { cellValue } from "../../harness/bundle";
import { parseFormula } from "../../harness/doc-examples";
import { parseCellAddress } from "../../src/office/workbook/sheet-insert";
import { templateFormulas, type SheetTemplate } from "../../src/taskpane/templates/template";
import { useBundle } from "../support/bundle";
import { templatesOnDisk } from "../support/sheet-templates";

const catalog = templatesOnDisk();
const cases = catalog.templates.flatMap((template) =>
  templateFormulas(template).map(({ address, formula }) => [template.id, address, formula, template] as const),
);

/** The error a cell shows, or null: a thrown CustomFunctions.Error, an error data type, or error text. */
function errorOf(value: unknown): string | null {
  if (value instanceof Error) return `${(value as Error & { code?: string }).code ?? value.name} ${value.message}`;
  if (typeof value === "object" && value !== null) {
    const typed = value as { type?: unknown; basicValue?: unknown; errorType?: unknown };
    if (typed.type === "Error") return `${String(typed.basicValue ?? typed.errorType)}`;
    return errorOf(typed.basicValue);
  }
  if (typeof value === "string" && /^#[A-Z/0!?]+[!?A]?$/.test(value)) return value;
  return null;
}

/** The template's non-empty cells a table spilled from `address` with `rows` × `columns` would cover, anchor aside. */
function cellsInTheWay(template: SheetTemplate, address: string, rows: number, columns: number): string[] {
  const anchor = parseCellAddress(address)!;
  const inTheWay: string[] = [];
  for (const block of template.cells) {
    const start = parseCellAddress(block.at)!;
    block.rows.forEach((row, r) =>
      row.forEach((entry, c) => {
        const [y, x] = [start.row + r, start.column + c];
        const covered = y >= anchor.row && y < anchor.row + rows && x >= anchor.column && x < anchor.column + columns;
        if (covered && entry !== "" && !(y === anchor.row && x === anchor.column)) inTheWay.push(`${entry}`);
      }),
    );
  }
  return inTheWay;
}

/**
 * The chart's cells a table spilled from `address`, `columns` wide, could ever cover: a spill grows downwards
 * with the data (more insight cards, a longer series), so every row from the anchor down counts, at the
 * table's full width. Null when the chart sits clear of it (beside it, or wholly above it).
 */
function chartOverSpill(template: SheetTemplate, address: string, columns: number): string | null {
  const position = template.chart?.position;
  if (!position) return null;
  const [from, to = from] = position.split(":");
  const [top, bottom] = [parseCellAddress(from)!, parseCellAddress(to)!];
  const anchor = parseCellAddress(address)!;
  const clearBeside = top.column > anchor.column + columns - 1 || bottom.column < anchor.column;
  const clearAbove = bottom.row < anchor.row;
  return clearBeside || clearAbove ? null : `the chart at ${position} covers the ${columns}-column spill of ${address}`;
}

const basic = (value: unknown) =>
  typeof value === "object" && value !== null && "basicValue" in value
    ? (value as { basicValue: unknown }).basicValue
    : value;

describe("templates: every formula evaluates without an error value (built functions.js, sandbox)", () => {
  const { bundle } = useBundle({ quiet: true, insightFirstCallDelayMs: 10 });

  it("the templates folder reads without problems, and has formulas to check", () => {
    expect(catalog.problems.map((p) => p.message)).toEqual([]);
    expect(catalog.templates.length).toBeGreaterThanOrEqual(4);
    expect(cases.length).toBeGreaterThan(50);
  });

  it("the check sees an error value: a pair the sandbox lacks is #N/A", async () => {
    const { id, args } = parseFormula('=MD.LATEST("base","PRICE")');
    expect(errorOf(await cellValue(bundle, id, args))).toMatch(/#N\/A/);
  });

  it.each(cases)("%s!%s %s", async (_id, address, formula, template) => {
    const { id, args } = parseFormula(formula);
    const value = await cellValue(bundle, id, args);
    const cells = Array.isArray(value) ? (value as unknown[][]).flat() : [value];
    const errors = cells.map(errorOf).filter((e) => e !== null);
    expect(errors).toEqual([]);
    // A single-value formula is a number (a comps cell), never text standing in for one.
    if (!Array.isArray(value)) expect(typeof basic(value)).toBe("number");
    else {
      expect(cells.filter((cell) => typeof basic(cell) === "number").length).toBeGreaterThan(0);
      const table = value as unknown[][];
      const width = Math.max(...table.map((row) => row.length));
      expect(cellsInTheWay(template, address, table.length, width)).toEqual([]);
      expect(chartOverSpill(template, address, width)).toBeNull();
    }
  });
});
