/**
 * Values in and out of a sheet: what ranges hold, what a formula cell shows
 * with its whole spill, and values written over ranges. Chunked by
 * MAX_CELLS_PER_SYNC (sync-chunks.ts).
 */
import { withoutSheet } from "../refresh/a1";
import type { CellResult, RangeValues, ValueBlock, ValueType } from "../refresh/workbook-adapter";
import { inAddressChunks, inChunks } from "./sync-chunks";

export async function loadValues(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
): Promise<RangeValues[]> {
  const ranges: Excel.Range[] = [];
  await inAddressChunks(context, addresses, (address) => {
    const range = sheet.getRange(address);
    range.load("values,valueTypes");
    ranges.push(range);
  });
  return ranges.map((range, i) => ({
    address: addresses[i],
    values: range.values,
    types: range.valueTypes as ValueType[][],
  }));
}

/**
 * What each formula cell shows, with the range it fills. First where each
 * result is (a spill's size is unknown until loaded), then its values in
 * chunks. Without spills (ExcelApi 1.12) every result is its own cell.
 */
export async function loadResults(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
  spillsSupported: () => boolean,
): Promise<CellResult[]> {
  let ranges = [...addresses];
  if (spillsSupported()) {
    const spills = addresses.map((address) => {
      const spill = sheet.getRange(address).getSpillingToRangeOrNullObject();
      spill.load("address");
      return spill;
    });
    await context.sync();
    ranges = spills.map((spill, i) => (spill.isNullObject ? addresses[i] : withoutSheet(spill.address)));
  }
  const values = await loadValues(context, sheet, ranges);
  return values.map((result, i): CellResult => ({ ...result, address: addresses[i], range: ranges[i] }));
}

export function writeValues(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  blocks: readonly ValueBlock[],
): Promise<void> {
  return inChunks(context, blocks, (block) => {
    sheet.getRange(block.address).values = block.values as Excel.Range["values"];
  });
}
