import { callMatchesRecord, mdCallsIn, pinnedFormula } from "../../src/core/call-formula";

describe("the MD calls a cell's formula makes", () => {
  it.each([
    ['=MD.LATEST("btc","PRICE")', [{ fn: "LATEST", args: ['"btc"', '"PRICE"'] }]],
    ['=md.agg( "eth" , "FEES", "30D" )*2', [{ fn: "AGG", args: ['"eth"', '"FEES"', '"30D"'] }]],
    [
      '=MD.SERIES({"btc","eth"},"PRICE",,"2024-01-31")',
      [{ fn: "SERIES", args: ['{"btc","eth"}', '"PRICE"', "", '"2024-01-31"'] }],
    ],
    [
      '=MD.LATEST("a,b","X")+MD.LATEST(A1,"Y")',
      [
        { fn: "LATEST", args: ['"a,b"', '"X"'] },
        { fn: "LATEST", args: ["A1", '"Y"'] },
      ],
    ],
    ['="MD.LATEST(1)"', []],
    ["=SUM(A1:A3)", []],
    ['=MD.LATEST("eth",IF(A1,"X","Y"))', [{ fn: "LATEST", args: ['"eth"', 'IF(A1,"X","Y")'] }]],
  ])("%s", (formula, calls) => {
    expect(mdCallsIn(formula)).toEqual(calls);
  });
});

describe("which recorded call answered a formula's call", () => {
  const call = (formula: string) => mdCallsIn(formula)[0]!;
  it.each([
    ['=MD.LATEST("btc","PRICE")', "LATEST", ['"btc"', '"PRICE"', "", ""], true],
    ['=MD.LATEST("btc","PRICE")', "LATEST", ['"eth"', '"PRICE"', "", ""], false],
    ['=MD.LATEST("btc","PRICE")', "AGG", ['"btc"', '"PRICE"', "", ""], false],
    ['=MD.LATEST("btc","PRICE","2024-01-02")', "LATEST", ['"btc"', '"PRICE"', "", ""], false],
    // A reference or an expression matches whatever it read.
    ['=MD.LATEST(A1,"PRICE")', "LATEST", ['"sol"', '"PRICE"', "", ""], true],
    ['=MD.AGG("eth","FEES","30D",,45000)', "AGG", ['"eth"', '"FEES"', '"30D"', "", "45000", ""], true],
    ['=MD.LATEST("a""b","X")', "LATEST", ['"a\\"b"', '"X"', "", ""], true],
    ["=MD.LATEST(TRUE,1.50)", "LATEST", ["TRUE", "1.5", "", ""], true],
  ])("%s vs %s %j: %s", (formula, fn, args, matches) => {
    expect(callMatchesRecord(call(formula), { fn, args })).toBe(matches);
  });
});

describe("a formula that reproduces the value later", () => {
  it.each([
    ["LATEST", ['"btc"', '"PRICE"', "", ""], '=MD.LATEST("btc","PRICE","2024-05-10")'],
    [
      "LATEST",
      ['"btc"', '"PRICE"', '"2024-01-02"', '"show=date"'],
      '=MD.LATEST("btc","PRICE","2024-01-02","show=date")',
    ],
    ["AGG", ['"eth"', '"FEES"', '"30D"', "", "", ""], '=MD.AGG("eth","FEES","30D",,"2024-05-10")'],
    ["SNAPSHOT", ['{"btc","eth"}', '"PRICE"', "", ""], '=MD.SNAPSHOT({"btc","eth"},"PRICE","2024-05-10")'],
    ["ASSET", ['"btc"', "", ""], '=MD.ASSET("btc","2024-05-10")'],
    ["SERIES", ['"eth"', '"PRICE"', '"-1Y"', "", "", ""], '=MD.SERIES("eth","PRICE","-1Y","2024-05-10")'],
    ["LATEST", ['"say \\"hi\\""', '"X"', "", ""], '=MD.LATEST("say ""hi""","X","2024-05-10")'],
    ["VERSION", [], "=MD.VERSION()"],
  ])("MD.%s %j", (fn, args, formula) => {
    expect(pinnedFormula({ fn, args }, "2024-05-10")).toBe(formula);
  });
});
