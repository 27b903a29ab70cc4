/**
 * The stand-in running the add-in's own functions (harness/workbook-stand-in/functions-runtime.ts), as the
 * dev build's demo workbook does: the formula's literal arguments, as Excel hands them, the result landing
 * (and spilling) in the model, a superseded run cancelled.
 */
import { installWorkbookStandIn } from "../../support/workbook-stand-in";
import { parseMdCall, runAssociatedFunctions } from "../../../harness/workbook-stand-in/functions-runtime";
import { emptyWorkbook } from "../../support/pane-page";

describe("parseMdCall", () => {
  it.each([
    ['=MD.LATEST("eth","PRICE")', { id: "LATEST", args: ["eth", "PRICE"] }],
    [
      '=md.series("eq-aapl","A, B","-3Y",,"QUARTER","last=8")',
      { id: "SERIES", args: ["eq-aapl", "A, B", "-3Y", null, "QUARTER", "last=8"] },
    ],
    ["=MD.ASSETS()", { id: "ASSETS", args: [] }],
    ['=MD.AGG("btc", "PRICE", 30, TRUE)', { id: "AGG", args: ["btc", "PRICE", 30, true] }],
    ['=MD.LATEST("say ""hi""")', { id: "LATEST", args: ['say "hi"'] }],
    ['=MD.LATEST("sol","PRICE")*2', null],
    ["=MD.LATEST(A1)", null],
    ["=SUM(1,2)", null],
  ])("%s", (formula, parsed) => {
    expect(parseMdCall(formula)).toEqual(parsed);
  });
});

describe("the stand-in computing formulas with the associated functions", () => {
  const metadata = [
    { id: "SERIES", parameters: [{ dimensionality: "matrix" as const }, { dimensionality: "scalar" as const }] },
    { id: "LATEST", parameters: [{}, {}] },
  ];

  it("runs the function with Excel's arguments, lands and spills its result, and re-renders", async () => {
    const seen: unknown[][] = [];
    const fns = {
      SERIES: (...args: unknown[]) => {
        seen.push(args);
        return Promise.resolve([
          ["Date", "X"],
          [1, 2],
          [3, 4],
        ]);
      },
      LATEST: () => Promise.reject(Object.assign(new Error("no data"), { code: "#N/A" })),
    };
    let changes = 0;
    const globals: Record<string, unknown> = {};
    const standIn = installWorkbookStandIn(globals, emptyWorkbook("A1"), {
      evaluate: runAssociatedFunctions(() => fns, metadata),
      changed: () => void (changes += 1),
    });
    standIn.edit("Sheet1", "A1", '=MD.SERIES("eth","PRICE")');
    standIn.edit("Sheet1", "E1", '=MD.LATEST("eth","PRICE")');
    standIn.edit("Sheet1", "E3", '=MD.LATEST("sol","PRICE")*2');
    await standIn.idle();
    expect(seen[0].slice(0, 2)).toEqual([[["eth"]], "PRICE"]);
    expect(seen[0][2]).toMatchObject({ functionName: "MD.SERIES", address: "Sheet1!A1" });
    expect(standIn.cell("Sheet1", "A1").value).toBe("Date");
    expect(standIn.cell("Sheet1", "B3").value).toBe(4);
    expect(standIn.cell("Sheet1", "E1").value).toBe("#N/A");
    // Not one MD call: an ordinary formula to the stand-in, its value kept.
    expect(standIn.cell("Sheet1", "E3").value).toBe("");
    expect(changes).toBe(2);
  });

  it("cancels a run its cell's new formula supersedes", async () => {
    const cancelled: string[] = [];
    const fns = {
      LATEST: (symbol: unknown, _metric: unknown, invocation: { onCanceled?: () => void }) =>
        new Promise((resolve) => {
          invocation.onCanceled = () => cancelled.push(String(symbol));
          if (symbol === "sol") resolve(7);
        }),
    };
    const standIn = installWorkbookStandIn({}, emptyWorkbook("A1"), {
      evaluate: runAssociatedFunctions(() => fns as never, metadata),
    });
    standIn.edit("Sheet1", "A1", '=MD.LATEST("eth","PRICE")');
    standIn.edit("Sheet1", "A1", '=MD.LATEST("sol","PRICE")');
    await standIn.idle();
    expect(cancelled).toEqual(["eth"]);
    expect(standIn.cell("Sheet1", "A1").value).toBe(7);
  });
});
