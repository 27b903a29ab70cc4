/** One-sync reads of where the workbook is: its calculation mode, sheets, selection and active sheet. */
import { withoutSheet } from "../../refresh/a1";
import type { CalculationMode, SelectionInfo } from "../../refresh/workbook-adapter";

export async function readCalculationMode(context: Excel.RequestContext): Promise<CalculationMode> {
  context.application.load("calculationMode");
  await context.sync();
  return context.application.calculationMode as CalculationMode;
}

/** Every sheet's name, hidden ones included, in tab order. */
export async function readSheetNames(context: Excel.RequestContext): Promise<string[]> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  return sheets.items.map((sheet) => sheet.name);
}

export async function readSelection(context: Excel.RequestContext): Promise<SelectionInfo> {
  const selected = context.workbook.getSelectedRanges();
  selected.areas.load("items/address");
  selected.worksheet.load("name");
  await context.sync();
  return {
    sheet: selected.worksheet.name,
    areas: selected.areas.items.map((area) => withoutSheet(area.address)),
  };
}

export async function readActiveSheetName(context: Excel.RequestContext): Promise<string> {
  const sheet = context.workbook.worksheets.getActiveWorksheet();
  sheet.load("name");
  await context.sync();
  return sheet.name;
}
