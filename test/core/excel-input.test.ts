import { describeValue } from "../../src/core/arguments";
import { ArgumentError, ErrorArgumentError } from "../../src/core/errors";
import { plainArgument, plainArguments } from "../../src/core/excel-input";

describe("plainArgument: Excel's data types read down to plain values", () => {
  it.each<[string, unknown, unknown]>([
    ["a plain number", 45292, 45292],
    ["a plain text", "eth", "eth"],
    ["blank", null, null],
    ["a Double (a date MD.SERIES spilled)", { type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" }, 45292],
    ["a FormattedNumber (ExcelApi 1.16)", { type: "FormattedNumber", basicValue: 2.5, numberFormat: "0.00%" }, 2.5],
    ["a String", { type: "String", basicValue: "PRICE" }, "PRICE"],
    ["a Boolean", { type: "Boolean", basicValue: false }, false],
    ["an Entity: its text, not its #VALUE! basicValue", { type: "Entity", text: "eth", basicValue: "#VALUE!" }, "eth"],
    ["a LinkedEntity (Stocks)", { type: "LinkedEntity", text: "Coinbase", basicValue: "#VALUE!", id: {} }, "Coinbase"],
    [
      "an MD.ASSET entity: the symbol it carries, not its title",
      {
        type: "Entity",
        text: "Ethereum",
        provider: { description: "Market Data for Excel" },
        properties: { Name: { type: "String", basicValue: "Ethereum" }, Symbol: { type: "String", basicValue: "eth" } },
      },
      "eth",
    ],
    [
      "an MD.ASSET entity whose Symbol arrives as plain text",
      {
        type: "Entity",
        text: "Apple",
        provider: { description: "Market Data for Excel" },
        properties: { Symbol: "eq-aapl" },
      },
      "eq-aapl",
    ],
    [
      // Microsoft Learn, "Use data types with custom functions in Excel", Input an entity value: a function reads
      // an entity argument by `text` and `properties[…].basicValue`; nothing says `provider` comes along.
      "an MD.ASSET entity without its provider: the basicValue of its Symbol property",
      {
        type: "Entity",
        text: "Ethereum",
        basicValue: "#VALUE!",
        basicType: "Error",
        properties: { Name: { type: "String", basicValue: "Ethereum" }, Symbol: { type: "String", basicValue: "eth" } },
      },
      "eth",
    ],
    ["Empty", { type: "Empty", basicValue: "" }, null],
    ["an Array data type: its elements", { type: "Array", elements: [[{ type: "String", basicValue: "a" }]] }, [["a"]]],
    [
      "a range of data types, cell by cell",
      [
        [
          { type: "String", basicValue: "headers" },
          { type: "Boolean", basicValue: true },
        ],
        ["last", { type: "Double", basicValue: 3 }],
      ],
      [
        ["headers", true],
        ["last", 3],
      ],
    ],
  ])("%s", (_what, value, plain) => {
    expect(plainArgument(value, "x")).toEqual(plain);
  });

  it.each<[string, unknown, RegExp]>([
    [
      "another provider's card with a Symbol property",
      {
        type: "Entity",
        text: "Coinbase",
        provider: { description: "Someone else" },
        properties: { Symbol: { type: "String", basicValue: "COIN" } },
      },
      /^symbol: "Coinbase" is a card from Someone else, not an MD\.ASSET card: its Symbol "COIN" may not be a symbol of this service\. Type the symbol as text \(such as "eth" or "eq-aapl"\), or point at an MD\.ASSET cell\.$/,
    ],
    [
      "a card whose Symbol is not text",
      { type: "Entity", text: "Thing", properties: { Symbol: { type: "Double", basicValue: 7 } } },
      /^symbol: "Thing" is a card whose Symbol is not text, so it names no symbol\. Type the symbol as text \(such as "eth" or "eq-aapl"\), or point at an MD\.ASSET cell\.$/,
    ],
  ])("refuses %s, saying why", (_what, value, message) => {
    expect(() => plainArgument(value, "symbol")).toThrow(ArgumentError);
    expect(() => plainArgument(value, "symbol")).toThrow(message);
  });

  it("leaves an object it cannot read for the parser to name", () => {
    const image = { type: "WebImage", address: "https://example.com/a.png" };
    expect(plainArgument(image, "symbol")).toBe(image);
    expect(describeValue(image)).toBe("a WebImage value");
    expect(describeValue({ type: "Entity", text: "" })).toBe('an Entity value ("")');
    expect(describeValue({ a: 1 })).toBe("an object that is not a cell value");
  });

  it.each<[string, unknown, string, string]>([
    ["#N/A", { type: "Error", errorType: "NotAvailable", basicValue: "#N/A" }, "#N/A", "#N/A"],
    ["#VALUE!", { type: "Error", errorType: "Value" }, "#VALUE!", "#VALUE!"],
    ["#DIV/0!", { type: "Error", errorType: "Div0" }, "#DIV/0!", "#DIV/0!"],
    ["#NULL!", { type: "Error", errorType: "Null" }, "#NULL!", "#NULL!"],
    ["#REF! (not returnable)", { type: "Error", errorType: "Ref" }, "#VALUE!", "#REF!"],
    ["#BUSY! (not ready)", { type: "Error", errorType: "Busy" }, "#N/A", "#BUSY!"],
    ["a CustomFunctions.Error object", { code: "#N/A", message: "" }, "#N/A", "#N/A"],
  ])("an error value %s fails with its matching error, naming it", (_what, value, code, named) => {
    let thrown: unknown;
    try {
      plainArguments({ as_of: [[1, value]] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ErrorArgumentError);
    expect((thrown as ErrorArgumentError).code).toBe(code);
    expect((thrown as Error).message).toMatch(
      new RegExp(`^as_of: the value passed in is ${named.replace(/[?/!]/g, "\\$&")}`),
    );
  });
});
