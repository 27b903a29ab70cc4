/**
 * Values in and out of a sheet: what ranges hold, what a formula cell shows
 * with its whole spill and the format of each cell, and values written over
 * ranges with their formats. Chunked by MAX_CELLS_PER_SYNC (sync-chunks.ts).
 */
import { cellCount, parseRange, withoutSheet } from "../../refresh/a1";
import type {
  CellJson,
  CellResult,
  RangeValues,
  SpillValues,
  ValueBlock,
  ValueType,
} from "../../refresh/workbook-adapter";
import {
  BYTES_PER_CELL_READ,
  blockBands,
  inAddressChunks,
  inChunks,
  loadInBands,
  rangeCost,
  valueBytes,
} from "./sync-chunks";

/** What each range holds; with `asJson` (ExcelApi 1.16), the JSON of the cells that read as errors (an MD.ASSET card reads #VALUE!). */
export async function loadValues(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
  asJson: boolean,
): Promise<RangeValues[]> {
  const ranges: Excel.Range[] = [];
  await inAddressChunks(context, addresses, (address) => {
    const range = sheet.getRange(address);
    range.load("values,valueTypes");
    ranges.push(range);
  });
  const jsons = asJson ? await loadJson(context, ranges, addresses, (type) => type === "Error") : [];
  return ranges.map((range, i) => ({
    address: addresses[i],
    values: range.values,
    types: range.valueTypes as ValueType[][],
    ...errorsAsJson(range, jsons[i]),
  }));
}

/** RangeValues.errorsAsJson: each Error-typed cell's JSON, null elsewhere; nothing when the range's JSON was not loaded. */
function errorsAsJson(range: Excel.Range, json: CellJson[][] | null | undefined): Pick<RangeValues, "errorsAsJson"> {
  if (!json) return {};
  const types = range.valueTypes as string[][];
  return { errorsAsJson: types.map((line, r) => line.map((type, c) => (type === "Error" ? json[r][c] : null))) };
}

/**
 * `Range.valuesAsJson` of the ranges holding a cell of a type `wanted`
 * accepts, in a second pass and in chunks (null for the others): the JSON of
 * an entity card carries all its properties, so it is read only where it
 * says something `values` cannot.
 */
async function loadJson(
  context: Excel.RequestContext,
  ranges: readonly Excel.Range[],
  addresses: readonly string[],
  wanted: (type: string) => boolean,
): Promise<(CellJson[][] | null)[]> {
  const jsons: (Excel.Range | null)[] = [];
  const picked = ranges.flatMap((range, i) =>
    (range.valueTypes as string[][]).some((line) => line.some(wanted)) ? [{ address: addresses[i], range, i }] : [],
  );
  await inChunks(
    context,
    picked,
    ({ range, i }) => {
      range.load("valuesAsJson");
      jsons[i] = range;
    },
    // A cell's JSON (its type, basic value, format) is a few times its value.
    ({ address }) => rangeCost(address, 4 * cellCount(parseRange(address)) * BYTES_PER_CELL_READ),
  );
  return ranges.map((_, i) => (jsons[i]?.valuesAsJson as CellJson[][] | undefined) ?? null);
}

/** What this Excel can tell about a result, by requirement set. */
export interface ResultReading {
  /** `getSpillingToRangeOrNullObject`, ExcelApi 1.12. */
  spills(): boolean;
  /** `Range.valuesAsJson`, ExcelApi 1.16. */
  valuesAsJson(): boolean;
}

/** Where each formula cell's result is: its spill (ExcelApi 1.12), or the cell itself without spills or a spill. */
async function resultRanges(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
  spills: boolean,
): Promise<string[]> {
  if (!spills) return [...addresses];
  const found: Excel.Range[] = [];
  await inAddressChunks(
    context,
    addresses,
    (address) => {
      const spill = sheet.getRange(address).getSpillingToRangeOrNullObject();
      spill.load("address");
      found.push(spill);
    },
    () => ({ operations: 3, bytes: BYTES_PER_CELL_READ }),
  );
  return found.map((spill, i) => (spill.isNullObject ? addresses[i] : withoutSheet(spill.address)));
}

/**
 * The values of each formula cell's whole spill (Range.getSpillingToRangeOrNullObject, ExcelApi 1.12: Microsoft
 * Learn, "Excel.Range class"), values only, a big spill in bands of rows joined again: What changed's tables.
 */
export async function loadSpillValues(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
  spills: boolean,
): Promise<SpillValues[]> {
  const ranges = await resultRanges(context, sheet, addresses, spills);
  const pieces = await loadInBands(context, sheet, ranges, "values", BYTES_PER_CELL_READ);
  const out: SpillValues[] = addresses.map((address, i) => ({ address, range: ranges[i]!, values: [] }));
  for (const piece of pieces) out[piece.owner]!.values.push(...(piece.range.values as unknown[][]));
  return out;
}

/**
 * What each formula cell shows, with the range it fills. First where each
 * result is (a spill's size is unknown until loaded), then its values and
 * formats in chunks. Without spills (ExcelApi 1.12) every result is its own
 * cell.
 */
export async function loadResults(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  addresses: readonly string[],
  reading: ResultReading,
): Promise<CellResult[]> {
  const ranges = await resultRanges(context, sheet, addresses, reading.spills());
  // A big spill in bands of rows, each a response well within Excel on the web's 5 MB, joined again below.
  const pieces = await loadInBands(context, sheet, ranges, "values,valueTypes,numberFormat", 3 * BYTES_PER_CELL_READ);
  const loaded = pieces.map((piece) => piece.range);
  // Numbers for the formats their values carry; errors for the cards that read as #VALUE!.
  const jsons = reading.valuesAsJson()
    ? await loadJson(
        context,
        loaded,
        pieces.map((piece) => piece.address),
        (type) => type === "Double" || type === "Integer" || type === "Error",
      )
    : [];
  const results: CellResult[] = [];
  loaded.forEach((range, i) => {
    const owner = pieces[i].owner;
    const own = range.numberFormat as unknown[][];
    const json = jsons[i];
    const piece: CellResult = {
      address: addresses[owner],
      range: ranges[owner],
      values: range.values,
      types: range.valueTypes as ValueType[][],
      formats: own.map((line, r) => line.map((format, c) => shownFormat(format, carriedFormat(json?.[r]?.[c])))),
      ...errorsAsJson(range, json),
    };
    const last = results[results.length - 1];
    if (i > 0 && pieces[i - 1].owner === owner) results[results.length - 1] = joinRows(last, piece);
    else results.push(piece);
  });
  return results;
}

/** Two bands of one result, one above the other. */
function joinRows(above: CellResult, below: CellResult): CellResult {
  const errors =
    above.errorsAsJson || below.errorsAsJson
      ? {
          errorsAsJson: [
            ...(above.errorsAsJson ?? above.types.map((line) => line.map(() => null))),
            ...(below.errorsAsJson ?? below.types.map((line) => line.map(() => null))),
          ],
        }
      : {};
  return {
    ...above,
    values: [...above.values, ...below.values],
    types: [...above.types, ...below.types],
    formats: [...above.formats, ...below.formats],
    ...errors,
  };
}

/**
 * The format a cell shows: one applied to the cell wins over the one its
 * value carries. "The number format in a `DoubleCellValue` is the default
 * format. If a user … applies formatting to the cell later, that applied
 * format overrides the value's format" (Microsoft Learn, "Excel data types:
 * core concepts",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-data-types-concepts).
 * `Range.numberFormat` says "General" for a cell nobody formatted, so the
 * value's format shows there; an applied "General" cannot be told apart from
 * none, and the value's format is kept for it (docs/excel-checklist.md §17).
 */
export function shownFormat(own: unknown, carried: string | null): string {
  const applied = String(own ?? "General");
  return applied !== "General" ? applied : (carried ?? applied);
}

/**
 * The number format carried in each value, where Excel can say.
 *
 * A custom function's formatted result is a data type (Microsoft Learn, "Use
 * data types with custom functions in Excel"): `Range.values` returns only its
 * basic value ("the value that would be returned by `Range.values` for a cell
 * with this value", Excel.DoubleCellValue.basicValue in @types/office-js) and
 * the cell's own `Range.numberFormat` is typically "General". `Range.valuesAsJson`
 * (ExcelApi 1.16: "Unlike `Range.values`, `Range.valuesAsJson` supports all data
 * types which can be in a cell. Examples include formatted number values")
 * returns the object with its `numberFormat`: Excel.DoubleCellValue (ExcelApi
 * 1.19) or Excel.FormattedNumberCellValue (1.16, deprecated since 1.19), in the
 * en-US locale like `Range.numberFormat` (not `numberFormatLocal`).
 *
 * Loaded in a second pass (loadJson) and only for ranges that hold a number
 * or an error: a format matters only for numbers, and an error may be an
 * entity card (MD.ASSET), whose JSON carries all its properties and would
 * swell every other request towards Excel's 5 MB limit.
 *
 * Without ExcelApi 1.16 (Excel 2019/2021) the cells' own formats are what is
 * kept. Those Excels return no data types from custom functions, so a format
 * the user sees there is on the cell; but a workbook calculated by a newer
 * Excel and frozen in an older one loses a format carried in a value (its
 * cell's own format says "General"), which no API of that Excel can read
 * (docs/excel-checklist.md asks a person to look).
 *
 * The format a cell value carries (Double with numberFormat, or FormattedNumber), or null.
 */
export function carriedFormat(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return null;
  const { type, numberFormat } = value as { type?: unknown; numberFormat?: unknown };
  if (type !== "Double" && type !== "FormattedNumber") return null;
  return typeof numberFormat === "string" && numberFormat !== "" ? numberFormat : null;
}

/**
 * Writes each block's values, then its formats, then its cards. `Range.valuesAsJson` is
 * settable in the typings (ExcelApi 1.16), but a format written that way stays
 * inside the value, as a data type an older Excel may not show; `Range.numberFormat`
 * (ExcelApi 1.1) puts it on the cell, where every Excel shows it, a frozen
 * value keeps it, and the user can change it as usual. Values first, so each
 * is entered as today and then shown in its format.
 */
export function writeValues(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  blocks: readonly ValueBlock[],
): Promise<void> {
  // A big block (a frozen spill) in bands of rows, each request well within Excel on the web's 5 MB.
  const bands = blocks.flatMap((block) =>
    blockBands(block, (b, address, from, to) => ({
      address,
      values: b.values.slice(from, to),
      ...(b.formats ? { formats: b.formats.slice(from, to) } : {}),
      ...(b.cards ? { cards: b.cards.slice(from, to) } : {}),
    })),
  );
  const cost = (block: ValueBlock) => ({
    operations: 3 + 3 * (block.cards?.flat().filter(Boolean).length ?? 0),
    bytes: valueBytes(block.values) + valueBytes(block.formats) + valueBytes(block.cards),
  });
  return inChunks(
    context,
    bands,
    (block) => {
      const range = sheet.getRange(block.address);
      range.values = block.values as Excel.Range["values"];
      if (block.formats) range.numberFormat = block.formats;
      // A frozen card goes back as the entity it was (src/refresh/cell-cards.ts), over its text.
      block.cards?.forEach((line, r) =>
        line.forEach((card, c) => {
          if (card) range.getCell(r, c).valuesAsJson = [[card as unknown as Excel.CellValue]];
        }),
      );
    },
    cost,
  );
}
