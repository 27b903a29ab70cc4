import { formulaForLocale, localeDecimalSeparator } from "../../src/core/formula-locale";
import { copyFormula, placeFormula } from "../../src/taskpane/shared/place-formula";
import type { WorkbookActions } from "../../src/office/workbook/pane-workbook";

describe("a copied formula in the form the user's Excel reads a paste", () => {
  it.each([
    ['=MD.LATEST("eth","PRICE")', '=MD.LATEST("eth";"PRICE")'],
    [
      '=MD.SERIES("eth, sol", "PRICE, FEES", "-1Y", , "WEEK", "last=20")',
      '=MD.SERIES("eth, sol"; "PRICE, FEES"; "-1Y"; ; "WEEK"; "last=20")',
    ],
    ['=MD.AGG("eth","FEES","30D",,1.5)', '=MD.AGG("eth";"FEES";"30D";;1,5)'],
    ["=MD.LATEST('Q1, comps'!A2,\"PRICE\")", "=MD.LATEST('Q1, comps'!A2;\"PRICE\")"],
    ['=MD.LATEST("say ""a, b""",B2.5)', '=MD.LATEST("say ""a, b""";B2.5)'],
  ])("where the decimal separator is a comma: %s → %s", (english, local) => {
    expect(formulaForLocale(english, ",")).toBe(local);
  });

  it("where it is a point, the formula is unchanged", () => {
    const formula = '=MD.AGG("eth","FEES","30D",,1.5)';
    expect(formulaForLocale(formula, ".")).toBe(formula);
  });

  it("reads a locale's decimal separator", () => {
    expect(localeDecimalSeparator("de-DE")).toBe(",");
    expect(localeDecimalSeparator("en-US")).toBe(".");
  });

  const workbook = (separator: string, canInsert = false): WorkbookActions => ({
    canInsert,
    insertFormula: () => Promise.reject(new Error("The cell is being edited.")),
    insertWithChart: () => Promise.reject(new Error("The cell is being edited.")),
    decimalSeparator: async () => separator,
  });

  it("Copy puts the local form on the clipboard and says so; Insert writes the English form", async () => {
    const copied: string[] = [];
    const copy = async (text: string) => (copied.push(text), true);
    expect(await copyFormula('=MD.LATEST("eth","PRICE")', copy, workbook(","))).toEqual({
      kind: "copied",
      message: "Formula copied, with ; between arguments as your Excel's settings expect.",
    });
    expect(await copyFormula('=MD.LATEST("eth","PRICE")', copy, workbook("."))).toEqual({
      kind: "copied",
      message: "Formula copied.",
    });
    // Excel refused the write: the copy made instead is the local form too.
    await placeFormula('=MD.LATEST("eth","PRICE")', workbook(",", true), copy);
    expect(copied).toEqual(['=MD.LATEST("eth";"PRICE")', '=MD.LATEST("eth","PRICE")', '=MD.LATEST("eth";"PRICE")']);
  });
});
