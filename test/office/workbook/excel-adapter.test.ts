/**
 * The Excel adapter's single-object batches against office-addin-mock, which
 * checks that a property is loaded and synced before it is read. (Its mocks
 * cannot load `items/name` from a collection or fill `isNullObject`, so the
 * sheet listing and used-range reads are covered by the recorded workbook
 * stand-in in test/refresh/refresh-all.test.ts and freeze.test.ts, and so are the
 * re-checked rewrite, the formula-cell scan and recalculation, which need
 * special cells, spills and calculation.)
 */
import { OfficeMockObject } from "office-addin-mock";
import { createExcelWorkbook, type ExcelWorkbookGlobals } from "../../../src/office/workbook/workbook";

type Mock = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function excelMock(
  ranges: Record<string, { values?: unknown[][]; valueTypes?: string[][]; valuesAsJson?: unknown[][] }>,
) {
  const mock = new OfficeMockObject({
    context: {
      workbook: {
        worksheets: {
          Comps: {
            name: "Comps",
            ranges: Object.fromEntries(
              Object.entries(ranges).map(([address, r]) => [address, { address, formulas: [[""]], ...r }]),
            ),
            getRange(this: Mock, address: string) {
              const range = this.ranges[address];
              if (!range) throw new Error(`unexpected range ${address}`);
              return range;
            },
          },
          getItem(this: Mock, name: string) {
            return this[name];
          },
          getActiveWorksheet(this: Mock) {
            return this.Comps;
          },
        },
      },
    },
    // Excel.run(options, batch): the add-in always passes RunOptions (delayForCellEdit).
    run: async function (this: Mock, _options: unknown, batch: (context: unknown) => Promise<unknown>) {
      return batch(this.context);
    },
  }) as Mock;
  let syncs = 0;
  const sync = mock.context.sync.bind(mock.context);
  mock.context.sync = async () => {
    syncs += 1;
    await sync();
  };
  const workbook = createExcelWorkbook({ Excel: mock, Office: {} } as unknown as ExcelWorkbookGlobals);
  return {
    mock,
    workbook,
    syncs: () => syncs,
    range: (address: string) => mock.context.workbook.worksheets.Comps.ranges[address],
  };
}

describe("Excel adapter (office-addin-mock)", () => {
  it("reads the active sheet's name after loading it", async () => {
    const { workbook } = excelMock({});
    expect(await workbook.getActiveSheet()).toBe("Comps");
  });

  it("reads values and value types of several ranges in one sync, in the order asked", async () => {
    const { workbook, syncs } = excelMock({
      B2: { values: [[1800.5]], valueTypes: [["Double"]] },
      C2: { values: [[2]], valueTypes: [["Double"]] },
    });
    const read = await workbook.readValues("Comps", ["C2", "B2"]);
    expect(read).toEqual([
      { address: "C2", values: [[2]], types: [["Double"]] },
      { address: "B2", values: [[1800.5]], types: [["Double"]] },
    ]);
    expect(syncs()).toBe(1);
  });

  it("reads the JSON of a range holding an error in a second sync: an MD.ASSET card reads #VALUE! typed Error", async () => {
    const entity = { type: "Entity", text: "Ethereum", properties: {}, basicType: "Error", basicValue: "#VALUE!" };
    const error = { type: "Error", basicValue: "#N/A", errorType: "NotAvailable" };
    const { workbook, syncs } = excelMock({
      B2: { values: [[1800.5]], valueTypes: [["Double"]] },
      "C2:D2": { values: [["#VALUE!", "#N/A"]], valueTypes: [["Error", "Error"]], valuesAsJson: [[entity, error]] },
    });
    const read = await workbook.readValues("Comps", ["C2:D2", "B2"]);
    expect(read).toEqual([
      { address: "C2:D2", values: [["#VALUE!", "#N/A"]], types: [["Error", "Error"]], errorsAsJson: [[entity, error]] },
      { address: "B2", values: [[1800.5]], types: [["Double"]] },
    ]);
    expect(syncs()).toBe(2);
  });

  it("writes values to exactly the frozen ranges", async () => {
    const { workbook, range } = excelMock({ "A4:B5": {} });
    const values = [
      ["date", "'eth PRICE"],
      [45000, 1800],
    ];
    await workbook.writeValues("Comps", [{ address: "A4:B5", values }]);
    expect(range("A4:B5").values).toEqual(values);
  });

  it("puts each cell's format on the cells with the values, when the block carries formats", async () => {
    const { workbook, range } = excelMock({ "A4:B5": {} });
    const values = [
      ["Date", "'eth PRICE"],
      [45000, 1800],
    ];
    const formats = [
      ["General", "General"],
      ["yyyy-mm-dd", "$#,##0.00"],
    ];
    await workbook.writeValues("Comps", [{ address: "A4:B5", values, formats }]);
    expect(range("A4:B5").values).toEqual(values);
    expect(range("A4:B5").numberFormat).toEqual(formats);
  });
});
