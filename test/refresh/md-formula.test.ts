import { callsMd } from "../../src/refresh/md-formula";

describe("callsMd: does a formula call an MD function?", () => {
  it.each([
    ['=MD.LATEST("eth","PRICE")', "a plain call"],
    ['=MD.LATEST("eth","PRICE")*2', "a call inside arithmetic"],
    ['=IFERROR(MD.AGG("eth","FEES","30D"),0)', "a call as another function's argument"],
    ['=A1+md.latest("btc","PRICE")', "lower case (Excel names are case-insensitive)"],
    ['=@MD.LATEST("eth","PRICE")', "after the implicit-intersection operator"],
    ['=LET(x,MD.SERIES("eth","PRICE","-30D"),TAKE(x,5))', "inside LET"],
    ['="MD." & MD.VERSION()', "a real call after a string that mentions MD."],
    ['=\'Q1 "comps"\'!A1+MD.LATEST("eth","PRICE")', "after a quoted sheet name with quotes in it"],
    ['=MD.SERIES("eth","PRICE",,,"WEEK")', "with omitted arguments"],
  ])("%s → true (%s)", (formula) => {
    expect(callsMd(formula)).toBe(true);
  });

  it.each([
    ['="MD.LATEST(1)"', "only inside a string literal"],
    ['="say ""MD.LATEST("" twice"', "inside a string with escaped quotes"],
    ["=XMD.FOO(1)", "another namespace that ends in MD"],
    ["=_MD.FOO(1)", "a name that only contains MD."],
    ["=FOO.MD.BAR(1)", "MD. in the middle of a dotted name"],
    ["=MD.RATE*2", "a defined name with a dot, not a call"],
    ["='MD. data'!A1*2", "a sheet name"],
    ["=Table1[MD.price]", "a table column"],
    ["=Table1[[#This Row],[MD.price]]", "a nested structured reference"],
    ["=SUM(A1:A10)", "an ordinary formula"],
    ['MD.LATEST("eth","PRICE")', "text that is not a formula"],
    [42, "a number"],
    [null, "an empty cell"],
    ["", "an empty string"],
  ] as [unknown, string][])("%s → false (%s)", (formula) => {
    expect(callsMd(formula)).toBe(false);
  });
});
