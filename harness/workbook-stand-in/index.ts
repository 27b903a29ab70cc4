/**
 * A recorded workbook behind the subset of Office.js the refresh feature uses:
 * `Excel.run` with proxy objects, `load`, and `context.sync()`;
 * `Office.context.document.settings`; `Office.addin`; `Office.actions`.
 *
 * Why not office-addin-mock for this part: its mocks are property bags. A
 * write to `range.formulas` is stored and nothing else happens, so it cannot
 * show a formula recalculating, a spill growing into its neighbours, a write
 * into a spill breaking it (#SPILL!), or a sync failing on a protected sheet —
 * the behaviours refresh and freeze exist to handle. Its `load("items/name")`
 * also cannot navigate into a collection's items. The Office.* parts are
 * covered with office-addin-mock in refresh-on-open.test.ts.
 *
 * One file per Excel object, each citing the Microsoft Learn page it models
 * (so a wrong model is found and fixed in one place; each case is also in
 * docs/excel-checklist.md, since only real Excel can confirm it):
 *   request-context.ts  Excel.RequestContext: load, sync, queued writes, proxies
 *   excel.ts            the Excel global: Excel.run and its RunOptions (undo group, cell edit)
 *   workbook.ts         Excel.Workbook and Excel.Application: selection, functions, calculation mode
 *   worksheet.ts        Excel.Worksheet and the WorksheetCollection: add, delete, activate, used range
 *   range.ts            Excel.Range and RangeAreas: values, formulas, number formats, spills, special cells
 *   range-format.ts     Excel.RangeFormat and RangeFont: column widths, bold
 *   chart.ts            Excel.ChartCollection, Chart, ChartAxis (recorded, not drawn)
 *   custom-xml.ts       Excel.CustomXmlPartCollection and its parts
 *   data-types.ts       cell values as data types (formatted numbers, entities): values vs valuesAsJson
 *   value-properties.ts properties on basic values: `=B2.Date`, the card, ExcelApi 1.19
 *   calculation.ts      recalculation, custom functions running, dynamic arrays spilling
 *   custom-functions.ts other add-ins' custom functions in formulas: NS.NAME loaded, _xldudf_NS_NAME not
 *   cell-entry.ts       what a write or a user's typing does to a cell; protection; undo
 *   settings.ts         Office.context.document.settings
 *   office.ts           the Office global: onReady, requirement sets, Office.addin, Office.actions (ribbon events)
 *   model.ts            the workbook's contents all of them read and change
 *   addresses.ts        A1 addresses and Office.js's errors
 *   types.ts            what a test records and reads back
 *   install.ts          installWorkbookStandIn and the handle a test holds
 * The browser suites send the same modules into the page (page-source.ts).
 */
export { installWorkbookStandIn } from "./install";
export type * from "./types";
