/**
 * MD.SUPPLY's table: a stablecoin's supply broken into its buckets per date.
 * The service does not publish "other locked"; it follows from the identity
 * CIRCULATING = TOTAL − (BRIDGED + PREMINT + PEG_STABILITY + other locked).
 */
import type { DateSystem } from "./excel-date";
import type { SeriesResult } from "./domain";
import { BLANK, type CellValue, isErrorCell, numberCell } from "./cell";
import { type SeriesColumn, defaultSeriesOptions, shapeSeriesTable } from "./series-table";

/** The series the table is built from, in column order. */
export const SUPPLY_PARTS = [
  { key: "total", metric: "STABLECOIN_SUPPLY_TOTAL", header: "Total" },
  { key: "bridged", metric: "STABLECOIN_SUPPLY_BRIDGED", header: "Bridged" },
  { key: "premint", metric: "STABLECOIN_SUPPLY_PREMINT", header: "Premint" },
  { key: "peg", metric: "STABLECOIN_SUPPLY_PEG_STABILITY", header: "Peg stability" },
  { key: "circulating", metric: "STABLECOIN_SUPPLY_CIRCULATING", header: "Circulating" },
] as const;

export type SupplyPart = (typeof SUPPLY_PARTS)[number]["key"];

export const SUPPLY_HEADERS = ["Date", "Total", "Bridged", "Premint", "Peg stability", "Other locked", "Circulating"];

export function shapeSupplyTable(
  symbol: string,
  series: Readonly<Record<SupplyPart, SeriesResult>>,
  window = "",
  dateSystem: DateSystem = 1900,
): CellValue[][] {
  const columns: SeriesColumn[] = SUPPLY_PARTS.map((part) => ({ header: part.header, result: series[part.key] }));
  const table = shapeSeriesTable(columns, defaultSeriesOptions(), window ? `${symbol} ${window}` : symbol, dateSystem);
  table[0] = [...SUPPLY_HEADERS];
  for (let r = 1; r < table.length; r++) {
    const [date, total, bridged, premint, peg, circulating] = table[r];
    table[r] = [
      date,
      total,
      bridged,
      premint,
      peg,
      otherLocked(total, bridged, premint, peg, circulating),
      circulating,
    ];
  }
  return table;
}

function otherLocked(
  total: CellValue,
  bridged: CellValue,
  premint: CellValue,
  peg: CellValue,
  circulating: CellValue,
): CellValue {
  const parts = [total, bridged, premint, peg, circulating];
  const error = parts.find(isErrorCell);
  if (error) return error;
  if (!parts.every((part) => typeof part === "number")) return BLANK;
  const [t, b, p, g, c] = parts as number[];
  const value = t - c - b - p - g;
  // Subtracting large floats leaves rounding dust where the identity holds exactly; show it as 0.
  return Math.abs(value) <= Math.abs(t) * 1e-12 ? 0 : numberCell(value, "Other locked");
}
