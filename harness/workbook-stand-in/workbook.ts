/**
 * Excel.Workbook (https://learn.microsoft.com/en-us/javascript/api/excel/excel.workbook)
 * and Excel.Application (https://learn.microsoft.com/en-us/javascript/api/excel/excel.application)
 * as a request context hands them out: the worksheets (worksheet.ts), the
 * selection, custom XML parts (custom-xml.ts), `functions.date`
 * (Excel.Functions, https://learn.microsoft.com/en-us/javascript/api/excel/excel.functions),
 * and the application's calculation mode and `calculate` (1.1; setting the
 * mode needs 1.8).
 *
 * The 1904 date system: `DATE(1904,1,1)` is 0 there and 1462 under 1900.
 */
import { officeError, parseRect } from "./addresses";
import { calculateRect } from "./calculation";
import { makeCustomXmlParts } from "./custom-xml";
import { sheetNamed, supports, usedRect } from "./model";
import { makeRange } from "./range";
import { collection, type Context, proxy } from "./request-context";
import { makeWorksheet, makeWorksheets } from "./worksheet";

export function makeWorkbook(context: Context): Record<string, unknown> {
  const m = context.model;
  // DATE(1904,1,1) is day 0 of the 1904 system and day 1462 of the 1900 system.
  const dateSerial = (y: number, mo: number, d: number) => {
    const days = Math.round((Date.UTC(y, mo - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000);
    return m.recording.date1904 ? days - 1462 : days;
  };
  return {
    worksheets: makeWorksheets(context),
    functions: {
      date: (y: number, mo: number, d: number) =>
        proxy(context, { value: () => dateSerial(y, mo, d), error: () => null }),
    },
    // The active cell's range: the task pane's Insert writes into its first cell.
    getSelectedRange: () => makeRange(context, sheetNamed(m, m.selection.sheet), () => parseRect(m.selection.areas[0])),
    getSelectedRanges: () => {
      const sheet = () => sheetNamed(m, m.selection.sheet);
      return {
        areas: collection(context, () =>
          m.selection.areas.map((area) => makeRange(context, sheet(), () => parseRect(area))),
        ),
        worksheet: makeWorksheet(context, () => m.selection.sheet),
      };
    },
    customXmlParts: makeCustomXmlParts(context),
  };
}

export function makeApplication(context: Context): Record<string, unknown> {
  const m = context.model;
  return proxy(
    context,
    { calculationMode: () => m.calculationMode },
    {
      calculate: (type: string) =>
        context.queue.push(() => {
          for (const s of m.sheets) {
            const all = usedRect(s, true);
            if (all) calculateRect(m, s, all, String(type) === "Recalculate");
          }
        }),
    },
    {
      calculationMode: (mode) => {
        if (!supports(m, "ExcelApi", "1.8"))
          throw officeError("ApiNotFound", "Setting calculationMode needs ExcelApi 1.8.");
        m.calculationMode = mode as typeof m.calculationMode;
      },
    },
  );
}
