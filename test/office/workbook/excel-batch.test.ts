/** @jest-environment jsdom */
// jsdom: the freeze log is written with the DOM's XML serializer, as in the pane's page.
/**
 * Every Excel batch waits while the user is typing in a cell
 * (`RunOptions.delayForCellEdit`; excel-batch.ts): the sources call
 * `Excel.run` in one place only, and against the workbook stand-in, which
 * fails a batch without the option during cell edit as Excel does, a refresh's
 * scan, a freeze (reads, writes and log), the pane's insert and the
 * date-system probe all wait for the edit to end and then complete.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { dateSystemOfWorkbook } from "../../../src/office/cells/date-system";
import { runBatch } from "../../../src/office/workbook/excel-batch";
import { excelWorkbook } from "../../../src/office/workbook/pane-workbook";
import { freezeToValues } from "../../../src/refresh/freeze";
import { openRecordedWorkbook } from "../../support/open-workbook";
import { compsWorkbook } from "../../support/recordings";

const root = path.resolve(__dirname, "../../..");

/** Lets every batch that could run, run: what still waits then waits for the edit to end. */
const pendingTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("Excel batches wait for the user's cell edit", () => {
  it("runBatch always passes delayForCellEdit: true, with the other options kept", async () => {
    const seen: Excel.RunOptions[] = [];
    const excel = {
      run: async <T>(options: Excel.RunOptions, batch: (context: Excel.RequestContext) => Promise<T>) => {
        seen.push(options);
        return batch({} as Excel.RequestContext);
      },
    };
    expect(await runBatch(excel, async () => 7)).toBe(7);
    await runBatch(excel, async () => 0, { mergeUndoGroup: true });
    await runBatch(excel, async () => 0, { delayForCellEdit: false });
    expect(seen).toEqual([
      { delayForCellEdit: true },
      { mergeUndoGroup: true, delayForCellEdit: true },
      { delayForCellEdit: true },
    ]);
  });

  it("no code in src/ calls Excel.run but excel-batch.ts", () => {
    const callers = sources(path.join(root, "src"))
      .filter((file) =>
        /\b[Ee]xcel\??\.run\s*\(/.test(readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")),
      )
      .map((file) => path.relative(root, file));
    expect(callers).toEqual(["src/office/workbook/excel-batch.ts"]);
  });

  it("the stand-in plays Excel: a batch without the option fails during cell edit", async () => {
    const { globals, standIn } = openRecordedWorkbook(compsWorkbook().recording);
    standIn.startCellEdit();
    const excel = globals.Excel as { run(batch: () => Promise<number>): Promise<number> };
    await expect(excel.run(async () => 1)).rejects.toThrow("the user is editing a cell");
  });

  it("a refresh's scan and result reads wait for the edit to end, then answer", async () => {
    const fixture = compsWorkbook();
    const { workbook, standIn } = openRecordedWorkbook({ ...fixture.recording, inCellEdit: true });
    let answered = false;
    const scan = workbook.readFormulaCells("Comps").then((cells) => ((answered = true), cells));
    const results = workbook.readResults("Comps", ["B2"]);
    await pendingTurn();
    expect(answered).toBe(false);
    standIn.endCellEdit();
    expect((await scan).cells.length).toBeGreaterThan(0);
    expect(await results).toHaveLength(1);
  });

  it("a freeze started during cell edit completes once the user leaves the cell: values written, log kept", async () => {
    const fixture = compsWorkbook();
    const { workbook, standIn } = openRecordedWorkbook({
      ...fixture.recording,
      activeSheet: "Comps",
      inCellEdit: true,
    });
    const freezing = freezeToValues(workbook, "sheet");
    await pendingTurn();
    standIn.endCellEdit();
    const report = await freezing;
    expect(report.formulas).toBeGreaterThan(0);
    expect(standIn.log.runOptions.every((options) => options.delayForCellEdit === true)).toBe(true);
    expect(standIn.customXmlParts().length).toBeGreaterThan(0);
  });

  it("the pane's insert and the date-system probe wait too", async () => {
    const { globals, standIn } = openRecordedWorkbook({
      ...compsWorkbook().recording,
      inCellEdit: true,
      date1904: true,
    });
    const excel = globals.Excel as Parameters<typeof excelWorkbook>[0];
    const inserted = excelWorkbook(excel).insertFormula('=MD.LATEST("eth","PRICE")');
    const dateSystem = dateSystemOfWorkbook({ Excel: excel }, 5_000)();
    await pendingTurn();
    standIn.endCellEdit();
    await expect(inserted).resolves.toEqual({ address: expect.any(String) });
    expect(await dateSystem).toBe(1904);
  });
});
