/**
 * Excel.Worksheet (https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheet)
 * and Excel.WorksheetCollection (https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheetcollection):
 * a sheet's name, protection, ranges, used range, charts and calculation;
 * `activate()` and `delete()` (1.1); the collection's `getItem`,
 * `getItemOrNullObject` (1.4), `getActiveWorksheet` and `add`.
 *
 * - `getUsedRangeOrNullObject(valuesOnly)` (ExcelApi 1.4): formatting alone
 *   extends the used range unless `valuesOnly` is true (model.ts).
 * - `WorksheetCollection.add(name)` (1.1) adds a worksheet at the end, usable
 *   in the same batch; the name "should be unique"
 *   (https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheetcollection#excel-excel-worksheetcollection-add-member(1)).
 *   Excel's sheet-name rules ("Rename a worksheet", support.microsoft.com: at
 *   most 31 characters, none of : \ / ? * [ ], not blank, no apostrophe first
 *   or last, not "History") and uniqueness without regard to case are
 *   enforced at sync: an invalid name fails with InvalidArgument, a taken one
 *   with ItemAlreadyExists.
 * - A workbook keeps at least one worksheet; deleting the active one
 *   activates the one before it.
 */
import { officeError, parseRect } from "./addresses";
import { calculateRect } from "./calculation";
import { makeChart } from "./chart";
import { type Model, type Sheet, sheetNamed, usedRect } from "./model";
import { makeRange } from "./range";
import { collection, type Context, needs, proxy } from "./request-context";

/** `resolve`: the sheet itself (one `add` made in this batch, before the sync that adds it); `isNull`: a null object's test. */
export function makeWorksheet(
  context: Context,
  name: () => string,
  resolve: () => Sheet = () => sheetNamed(context.model, name()),
  isNull?: () => boolean,
): Record<string, unknown> {
  const m = context.model;
  const sheet = resolve;
  return proxy(
    context,
    { name: () => sheet().name, ...(isNull ? { isNullObject: isNull } : {}) },
    {
      protection: proxy(context, { protected: () => sheet().protected }),
      activate: () =>
        context.queue.push(() => {
          m.activeSheet = sheet().name;
        }),
      delete: () => context.queue.push(() => deleteSheet(m, sheet())),
      getRange: (address: string) => makeRange(context, sheet(), () => parseRect(address)),
      charts: {
        add: (type: string, source: Record<string, unknown>, seriesBy?: string) =>
          makeChart(context, sheet().name, type, source, seriesBy),
      },
      getUsedRangeOrNullObject: (valuesOnly?: boolean) =>
        makeRange(context, sheet(), () => usedRect(sheet(), valuesOnly === true)),
      calculate: (markAllDirty: boolean) =>
        needs(context, "Worksheet.calculate", "1.6", () => {
          const s = sheet();
          const all = usedRect(s, true);
          if (all) calculateRect(m, s, all, !markAllDirty);
        }),
    },
  );
}

function deleteSheet(m: Model, doomed: Sheet): void {
  const { sheets } = m;
  const at = sheets.indexOf(doomed);
  if (at < 0) throw officeError("ItemNotFound", `The requested resource doesn't exist: worksheet "${doomed.name}".`);
  if (sheets.length === 1)
    throw officeError("InvalidOperation", "A workbook must contain at least one visible worksheet.");
  sheets.splice(at, 1);
  if (m.activeSheet === doomed.name) m.activeSheet = sheets[Math.max(0, at - 1)].name;
}

/** `Workbook.worksheets`: every sheet (loadable as items), one by name, the active one, a new one. */
export function makeWorksheets(context: Context): Record<string, unknown> {
  const m = context.model;
  const worksheets = collection(context, () => m.sheets.map((s) => makeWorksheet(context, () => s.name)));
  return Object.assign(worksheets, {
    // Each one an object of the request (payload.ts); a range's own `worksheet` is not made unless used.
    getItem: (name: string) => {
      context.countObject();
      return makeWorksheet(context, () => name);
    },
    getActiveWorksheet: () => {
      context.countObject();
      return makeWorksheet(context, () => m.activeSheet);
    },
    add: (name?: string) => addWorksheet(context, name),
    getItemOrNullObject: (name: string) => {
      context.countObject();
      const found = () => m.sheets.find((s) => s.name.toLowerCase() === String(name).toLowerCase()) ?? null;
      return makeWorksheet(
        context,
        () => found()?.name ?? String(name),
        undefined,
        () => found() === null,
      );
    },
  });
}

/** Excel's objection to a new sheet's name, or null (see the header: "Rename a worksheet"). */
function sheetNameRefusal(m: Model, name: string): Error | null {
  const invalid =
    name.trim() === "" ||
    name.length > 31 ||
    /[:\\/?*[\]]/.test(name) ||
    name.startsWith("'") ||
    name.endsWith("'") ||
    name.toLowerCase() === "history";
  if (invalid)
    return officeError(
      "InvalidArgument",
      `The argument is invalid or missing or has an incorrect format: sheet name "${name}".`,
    );
  if (m.sheets.some((s) => s.name.toLowerCase() === name.toLowerCase()))
    return officeError("ItemAlreadyExists", `The resource with the name or ID "${name}" already exists.`);
  return null;
}

/** `worksheets.add(name)`: the new sheet is usable at once in the batch and joins the workbook (at the end) at sync. */
function addWorksheet(context: Context, wanted?: string): Record<string, unknown> {
  const m = context.model;
  let n = m.sheets.length + 1;
  while (wanted === undefined && m.sheets.some((s) => s.name.toLowerCase() === `sheet${n}`)) n += 1;
  const name = wanted ?? `Sheet${n}`;
  const sheet: Sheet = { name, protected: false, cells: new Map(), formattedTo: null, formats: new Map() };
  context.queue.push(() => {
    const refusal = sheetNameRefusal(m, name);
    if (refusal) throw refusal;
    m.sheets.push(sheet);
    m.log.sheetsAdded.push(name);
  });
  return makeWorksheet(
    context,
    () => name,
    () => sheet,
  );
}
