/** MD.METRICS's table: what a symbol offers, from the metric catalog. */
import type { MetricDescriptor } from "./domain";
import { type CellValue, textCell } from "./cell";
import { NoDataError } from "./errors";
import { assertFitsExcel } from "./payload-size";
import { matchesWords, searchWords } from "./text-search";

export const METRIC_HEADERS = ["Metric", "Label", "Unit", "Aggregation", "Source", "Description"];

export function shapeMetricsTable(symbol: string, metrics: readonly MetricDescriptor[], search: string): CellValue[][] {
  const words = searchWords(search);
  const found = metrics.filter((m) => matchesWords(words, [m.name, m.label, m.description]));
  if (found.length === 0) {
    throw new NoDataError(
      search
        ? `No metric of ${symbol} matches ${JSON.stringify(search)}.`
        : `The catalog lists no metric for ${symbol}.`,
    );
  }
  const rows: CellValue[][] = [METRIC_HEADERS];
  for (const m of found)
    rows.push([m.name, m.label, m.unit, m.aggregation_type, m.source, m.description].map(textCell));
  assertFitsExcel(rows, "Narrow it with a search text.");
  return rows;
}
