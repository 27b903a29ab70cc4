/**
 * Template files: the loader's verdict on good and bad files (every problem
 * named, with the file and the field), and discovery — webpack builds the
 * catalog from whatever JSON files the templates folder holds, so a file
 * added there appears in the gallery with no code changed.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import webpack from "webpack";
import { sheetNameProblem, uniqueSheetName } from "../../src/office/workbook/sheet-insert";
import type { TemplateCatalog } from "../../src/taskpane/templates/template";
import { readTemplate, readTemplates, TemplateError, functionsUsed } from "../../src/taskpane/templates/template";
import { TEMPLATE_DIR, templateFileNames, templatesOnDisk } from "../support/sheet-templates";

const GOOD = {
  title: "Two prices",
  description: "Ether and Solana prices.",
  sheetName: "Prices",
  cells: [
    {
      at: "A1",
      rows: [
        ["Asset", "Price"],
        ["eth", '=MD.LATEST("eth","PRICE")'],
        ["sol", '=MD.LATEST("sol","PRICE")'],
      ],
    },
  ],
  numberFormats: [{ range: "B2:B3", format: "$#,##0.00" }],
  bold: ["A1:B1"],
  columnWidths: [{ columns: "A:B", width: 80 }],
  chart: { type: "ColumnClustered", source: "B1:B3", categories: "A2:A3", title: "Price", position: "D1:J14" },
};

/** The problems the loader names for `data` read as "bad.json". */
function problemsOf(data: unknown): readonly string[] {
  try {
    readTemplate("bad.json", data);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message.startsWith("bad.json: ")).toBe(true);
    return (error as TemplateError).problems;
  }
}

describe("reading a template file", () => {
  it("reads a good template, its id from the file name", () => {
    const template = readTemplate("two-prices.json", GOOD);
    expect(template).toEqual({ id: "two-prices", ...GOOD });
    expect(functionsUsed(template)).toEqual(["MD.LATEST"]);
  });

  it.each<[string, unknown, string[]]>([
    ["not an object", [GOOD], ["the file must hold one JSON object"]],
    ["a mistyped field", { ...GOOD, colour: "red" }, ['unknown field "colour"']],
    ["no title", { ...GOOD, title: "" }, ['"title" must be non-empty text']],
    [
      "a sheet name Excel refuses",
      { ...GOOD, sheetName: "Q1/Q2 comps" },
      ['"sheetName" "Q1/Q2 comps": a sheet name cannot contain / (none of : \\ / ? * [ ])'],
    ],
    [
      "a bad block address",
      { ...GOOD, cells: [{ at: "A0", rows: [["x"]] }] },
      ['cells[0].at must be one cell in A1 notation ("A3"), not "A0"'],
    ],
    [
      "a cell that is neither text, number nor boolean",
      { ...GOOD, cells: [{ at: "A1", rows: [["x", null]] }] },
      ["cells[0].rows[0][1] must be text, a number or a boolean, not null"],
    ],
    [
      "a formula with an unclosed quote",
      { ...GOOD, cells: [{ at: "A1", rows: [['=MD.LATEST("eth,"PRICE")']] }] },
      ['cells[0].rows[0][0] =MD.LATEST("eth,"PRICE"): unbalanced quotes or parentheses'],
    ],
    [
      "a number format on a reversed range",
      { ...GOOD, numberFormats: [{ range: "B3:B2", format: "0" }] },
      ['numberFormats[0].range must be a range in A1 notation ("B4:D9"), not "B3:B2"'],
    ],
    [
      "a width on a cell, not a column",
      { ...GOOD, columnWidths: [{ columns: "A1", width: 0 }] },
      [
        'columnWidths[0].columns must be columns such as "A:A" or "B:H", not "A1"',
        "columnWidths[0].width must be a number of points, 1 to 1790",
      ],
    ],
    [
      "a chart type Excel does not have here, and a chart without a title",
      { ...GOOD, chart: { ...GOOD.chart, type: "Donut3D", title: undefined } },
      [
        '"chart.type" must be one of ColumnClustered, BarClustered, Line, Pie, not "Donut3D"',
        '"chart.title" must be non-empty text',
      ],
    ],
  ])("names the problem: %s", (_case, data, problems) => {
    expect(problemsOf(data)).toEqual(problems);
  });

  it("a bad file is reported and the good ones still load", () => {
    const catalog = readTemplates([
      { file: "b-bad.json", data: { ...GOOD, chart: { ...GOOD.chart, source: "nowhere" } } },
      { file: "a-good.json", data: GOOD },
    ]);
    expect(catalog.templates.map((t) => t.id)).toEqual(["a-good"]);
    expect(catalog.problems.map((p) => p.message)).toEqual([
      'b-bad.json: "chart.source" must be a range in A1 notation ("B4:D9"), not "nowhere"',
    ]);
  });

  it("every file in the templates folder reads without a problem", () => {
    const catalog = templatesOnDisk();
    expect(catalog.problems.map((p) => p.message)).toEqual([]);
    expect(catalog.templates.map((t) => `${t.id}.json`)).toEqual(templateFileNames());
  });
});

describe("sheet names", () => {
  it.each<[string, string | null]>([
    ["Equity comps", null],
    ["", "a sheet name cannot be blank"],
    ["x".repeat(32), "a sheet name has at most 31 characters (32)"],
    ["Comps [2025]", "a sheet name cannot contain [ (none of : \\ / ? * [ ])"],
    ["'Quoted", "a sheet name cannot start or end with an apostrophe"],
    ["history", '"History" is a name Excel keeps for itself'],
  ])("%j → %s", (name, problem) => {
    expect(sheetNameProblem(name)).toBe(problem);
  });

  it.each<[string, string[], string]>([
    ["Equity comps", ["Sheet1"], "Equity comps"],
    ["Equity comps", ["equity COMPS"], "Equity comps (2)"],
    ["Equity comps", ["Equity comps", "Equity comps (2)"], "Equity comps (3)"],
    ["x".repeat(31), ["x".repeat(31)], `${"x".repeat(27)} (2)`],
  ])("%j among %j → %j", (wanted, taken, name) => {
    expect(uniqueSheetName(wanted, taken)).toBe(name);
    expect(sheetNameProblem(name)).toBeNull();
  });
});

describe("discovery: the build lists whatever files the folder holds", () => {
  let folder: string;
  let output: string;

  beforeAll(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), "md-templates-"));
    output = mkdtempSync(path.join(os.tmpdir(), "md-templates-out-"));
    for (const file of templateFileNames()) copyFileSync(path.join(TEMPLATE_DIR, file), path.join(folder, file));
    writeFileSync(path.join(folder, "two-prices.json"), JSON.stringify(GOOD));
    writeFileSync(path.join(folder, "broken.json"), JSON.stringify({ ...GOOD, sheetName: "a:b" }));
    writeFileSync(path.join(folder, "notes.txt"), "not a template");
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(output, { recursive: true, force: true });
  });

  /** Builds src/taskpane/templates/catalog.ts as the pane build does, its ./data folder swapped for `folder`. */
  async function buildCatalog(): Promise<TemplateCatalog> {
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack(
        {
          mode: "development",
          devtool: false,
          target: "node",
          entry: path.resolve(__dirname, "../../src/taskpane/templates/catalog.ts"),
          output: { path: output, filename: "catalog.js", library: { type: "commonjs2" } },
          resolve: { extensions: [".ts", ".tsx", ".js"] },
          module: {
            rules: [
              {
                test: /\.tsx?$/,
                exclude: /node_modules/,
                use: { loader: "ts-loader", options: { transpileOnly: true } },
              },
            ],
          },
          plugins: [new webpack.ContextReplacementPlugin(/templates[\\/]data$/, folder)],
        },
        (error, result) => (error || !result ? reject(error) : resolve(result)),
      ),
    );
    expect(stats.toJson({ all: false, errors: true, warnings: true })).toEqual(
      expect.objectContaining({ errors: [], warnings: [] }),
    );
    const built = (await import(path.join(output, "catalog.js"))) as { bundledTemplates(): TemplateCatalog };
    return built.bundledTemplates();
  }

  it("a new file appears in the catalog, a broken one is reported, other files are ignored", async () => {
    const catalog = await buildCatalog();
    expect(catalog.templates.map((t) => t.id)).toEqual(
      [...templateFileNames().map((file) => file.replace(/\.json$/, "")), "two-prices"].sort(),
    );
    expect(catalog.templates.find((t) => t.id === "two-prices")?.title).toBe("Two prices");
    expect(catalog.problems.map((p) => p.message)).toEqual([
      'broken.json: "sheetName" "a:b": a sheet name cannot contain : (none of : \\ / ? * [ ])',
    ]);
  }, 120_000);
});
