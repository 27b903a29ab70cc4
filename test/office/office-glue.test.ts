/** @jest-environment jsdom */
/**
 * The pane's edges: writing a formula through an `Excel.run` stand-in,
 * choosing a workbook by host, copying with and without the async clipboard,
 * placing a formula (insert, or copy and say why), and reading Office's theme.
 */
import { copyText } from "../../src/taskpane/shared/clipboard";
import { luminance, themeFromOffice } from "../../src/taskpane/shared/office-theme";
import {
  copyFormula,
  OUTSIDE_EXCEL_COPIED,
  OUTSIDE_EXCEL_NOT_COPIED,
  placeFormula,
} from "../../src/taskpane/shared/place-formula";
import {
  excelWorkbook,
  NO_WORKBOOK,
  workbookForHost,
  type WorkbookActions,
} from "../../src/office/workbook/pane-workbook";

/** A minimal Excel: a selection of cells; writes land only when `sync` is awaited, as in Excel. */
function excelStandIn(selection: string[][], options: { failSync?: Error } = {}) {
  const written: { address: string; formulas: unknown }[] = [];
  const batches: Excel.RunOptions[] = [];
  const excel = {
    run<T>(runOptions: Excel.RunOptions, batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> {
      batches.push(runOptions);
      const pending: { address: string; formulas: unknown }[] = [];
      const cellAt = (row: number, column: number) => {
        const cell = { address: selection[row][column], formulas: undefined as unknown, load: () => cell };
        return new Proxy(cell, {
          set(target, key, value) {
            if (key === "formulas") pending.push({ address: target.address, formulas: value });
            return Reflect.set(target, key, value);
          },
        });
      };
      const context = {
        workbook: { getSelectedRange: () => ({ getCell: cellAt }) },
        sync: async () => {
          if (options.failSync) throw options.failSync;
          written.push(...pending.splice(0));
        },
      };
      return batch(context as unknown as Excel.RequestContext);
    },
  };
  return { excel, written, batches };
}

describe("writing into the workbook", () => {
  it("writes the formula into the selection's first cell in one Excel.run, and answers its address", async () => {
    const standIn = excelStandIn([
      ["Sheet1!C3", "Sheet1!D3"],
      ["Sheet1!C4", "Sheet1!D4"],
    ]);
    const workbook = excelWorkbook(standIn.excel);
    const formula = '=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")';
    await expect(workbook.insertFormula(formula)).resolves.toEqual({ address: "Sheet1!C3" });
    expect(standIn.written).toEqual([{ address: "Sheet1!C3", formulas: [[formula]] }]);
    expect(standIn.batches).toHaveLength(1);
    // It waits while the user is typing in a cell instead of failing (excel-batch.ts).
    expect(standIn.batches).toEqual([{ delayForCellEdit: true }]);
  });

  it("passes Excel's refusal on", async () => {
    const refusal = new Error("The cell is being edited.");
    const workbook = excelWorkbook(excelStandIn([["Sheet1!A1"]], { failSync: refusal }).excel);
    await expect(workbook.insertFormula('=MD.LATEST("eth","PRICE")')).rejects.toBe(refusal);
  });

  it.each([
    ["Excel with the Excel API", "Excel", true, true],
    ["Excel whose Excel API is missing", "Excel", false, false],
    ["another host", "Word", true, false],
    ["a plain browser", null, true, false],
  ])("%s → can insert: %s", (_, host, withExcel, expected) => {
    const globals = withExcel ? { Excel: excelStandIn([["Sheet1!A1"]]).excel } : {};
    const workbook = workbookForHost(host as string | null, globals);
    expect(workbook.canInsert).toBe(expected);
    if (!expected) expect(workbook).toBe(NO_WORKBOOK);
  });

  it("without a workbook, inserting is refused with a sentence that says to open Excel", async () => {
    await expect(NO_WORKBOOK.insertFormula('=MD.LATEST("eth","PRICE")')).rejects.toThrow(/open this pane in Excel/);
  });
});

describe("copying", () => {
  const realClipboard = Object.getOwnPropertyDescriptor(navigator, "clipboard");
  const realExec = document.execCommand;
  afterEach(() => {
    if (realClipboard) Object.defineProperty(navigator, "clipboard", realClipboard);
    document.execCommand = realExec;
  });

  function clipboard(writeText: ((text: string) => Promise<void>) | undefined) {
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: writeText ? { writeText } : undefined });
  }

  it("uses the async clipboard when it works", async () => {
    const copied: string[] = [];
    clipboard(async (text) => void copied.push(text));
    document.execCommand = jest.fn(() => true);
    await expect(copyText('=MD.LATEST("eth","PRICE")')).resolves.toBe(true);
    expect(copied).toEqual(['=MD.LATEST("eth","PRICE")']);
    expect(document.execCommand).not.toHaveBeenCalled();
  });

  it.each([
    [
      "refuses (no clipboard-write permission in the host's frame)",
      async () => Promise.reject(new Error("NotAllowedError")),
    ],
    ["is missing", undefined],
  ])("falls back to a hidden textarea and execCommand when the async clipboard %s", async (_, writeText) => {
    clipboard(writeText);
    let selected = "";
    document.execCommand = jest.fn((command: string) => {
      const area = document.activeElement as HTMLTextAreaElement;
      selected = area.tagName === "TEXTAREA" ? area.value.slice(area.selectionStart, area.selectionEnd) : "";
      return command === "copy";
    });
    await expect(copyText('=MD.SERIES("btc","PRICE")')).resolves.toBe(true);
    expect(selected).toBe('=MD.SERIES("btc","PRICE")');
    expect(document.querySelectorAll("textarea")).toHaveLength(0);
  });

  it("answers false when both routes fail, leaving nothing behind", async () => {
    clipboard(async () => Promise.reject(new Error("NotAllowedError")));
    document.execCommand = jest.fn(() => {
      throw new Error("not supported");
    });
    await expect(copyText("x")).resolves.toBe(false);
    expect(document.querySelectorAll("textarea")).toHaveLength(0);
  });
});

describe("placing a formula", () => {
  const formula = '=MD.SERIES("eth","PRICE","-1Y")';
  const recordingWorkbook = (fail?: Error): WorkbookActions & { written: string[] } => {
    const written: string[] = [];
    return {
      canInsert: true,
      written,
      insertFormula: async (f) => {
        if (fail) throw fail;
        written.push(f);
        return { address: "Sheet1!B2" };
      },
      insertWithChart: async (f) => {
        if (fail) throw fail;
        written.push(`${f} + chart`);
        return { address: "Sheet1!B2" };
      },
    };
  };
  const copier = (works: boolean) => {
    const copied: string[] = [];
    return { copied, copy: async (text: string) => (works ? (copied.push(text), true) : false) };
  };

  it("in Excel: inserts and says where", async () => {
    const workbook = recordingWorkbook();
    const { copy, copied } = copier(true);
    await expect(placeFormula(formula, workbook, copy)).resolves.toEqual({
      kind: "inserted",
      address: "Sheet1!B2",
      message: "Inserted into Sheet1!B2.",
    });
    expect(workbook.written).toEqual([formula]);
    expect(copied).toEqual([]);
  });

  it("in Excel, when Excel refuses: copies instead and quotes Excel's reason", async () => {
    const { copy, copied } = copier(true);
    const outcome = await placeFormula(formula, recordingWorkbook(new Error("The cell is being edited.")), copy);
    expect(outcome).toEqual({
      kind: "copied",
      message: "Excel did not accept the formula (The cell is being edited.). Formula copied instead.",
    });
    expect(copied).toEqual([formula]);
  });

  it.each([
    [true, { kind: "copied", message: OUTSIDE_EXCEL_COPIED }],
    [false, { kind: "failed", message: OUTSIDE_EXCEL_NOT_COPIED }],
  ])("outside Excel (copy works: %s): never touches a workbook, says so", async (works, expected) => {
    const { copy, copied } = copier(works);
    await expect(placeFormula(formula, NO_WORKBOOK, copy)).resolves.toEqual(expected);
    expect(copied).toEqual(works ? [formula] : []);
  });

  it.each([
    [true, "copied", "Formula copied."],
    [false, "failed", "Copying was blocked: select the formula text and press Ctrl+C."],
  ])("Copy (works: %s) → %s", async (works, kind, message) => {
    await expect(copyFormula(formula, copier(works).copy)).resolves.toEqual({ kind, message });
  });
});

describe("Office's theme", () => {
  it.each([
    ["#000000", 0],
    ["#FFFFFF", 1],
    ["ffffff", 1],
    ["#808080", 0.2158605],
  ])("luminance(%s) = %s", (hex, expected) => {
    expect(luminance(hex)).toBeCloseTo(expected, 5);
  });

  it.each(["", "#fff", "red", "#GGGGGG", "#1234567"])("luminance(%j) is null: not #RRGGBB", (text) => {
    expect(luminance(text)).toBeNull();
  });

  it.each([
    [null, null],
    [{}, null],
    [{ isDarkTheme: true }, "dark"],
    [{ isDarkTheme: false, bodyBackgroundColor: "#111111" }, "light"],
    [{ bodyBackgroundColor: "#1F1F1F" }, "dark"],
    [{ bodyBackgroundColor: "#FFFFFF" }, "light"],
    [{ bodyBackgroundColor: "not a colour" }, null],
  ])("themeFromOffice(%j) → %s", (theme, expected) => {
    expect(themeFromOffice(theme)).toBe(expected);
  });
});
