/**
 * MD.SERIES's option fiscal=true: a `<symbol> fiscal period` column per symbol
 * with financials, labelling each reported quarter `FY2025 Q4`. The label of
 * the latest reported quarter comes from the metric catalog
 * (`latest_fiscal_period`) and its date from the series (the last quarter on or
 * before today, read on MD.LATEST's window so cells share it); every other
 * quarter is counted from that pair (src/core/fiscal.ts).
 */
import type { SeriesResult } from "../core/domain";
import { shiftDate } from "../core/calendar";
import { type CellValue, errorCell } from "../core/cell";
import { ArgumentError } from "../core/errors";
import { fiscalLabel, fiscalPeriodOn, parseFiscalPeriod } from "../core/fiscal";
import { FINANCIAL_METRICS, isFinancial } from "../core/metric-knowledge";
import type { LabelColumn } from "../core/series-table";
import type { CallContext } from "./call-context";
import { fetchReadings } from "./fetch-series";
import { LATEST_LOOKBACKS } from "./latest";

export function fiscalHeader(symbol: string): string {
  return `${symbol} fiscal period`;
}

export async function fiscalLabelColumns(
  ctx: CallContext,
  pairs: readonly { symbol: string; metric: string }[],
  results: readonly SeriesResult[],
): Promise<LabelColumn[]> {
  const symbols = [...new Set(pairs.filter((p) => isFinancial(p.metric)).map((p) => p.symbol))];
  if (symbols.length === 0) {
    throw new ArgumentError(
      "options",
      `fiscal=true labels the quarters of fiscal financials (${FINANCIAL_METRICS.join(", ")}), and none of the metrics is one.`,
    );
  }
  const lookback = LATEST_LOOKBACKS.QUARTER[0];
  return Promise.all(
    symbols.map(async (symbol): Promise<LabelColumn> => {
      const metric = pairs.find((p) => p.symbol === symbol && isFinancial(p.metric))!.metric;
      const [catalog, recent] = await Promise.all([
        ctx.client.getMetrics(symbol, ctx.call).catch(() => []),
        fetchReadings(
          ctx,
          symbol,
          metric,
          "QUARTER",
          shiftDate(ctx.today, -lookback.count, lookback.unit),
          ctx.today,
          "keep",
        ).catch(() => []),
      ]);
      const latest = parseFiscalPeriod(catalog.find((d) => d.name === metric)?.latest_fiscal_period);
      const anchor = recent.length > 0 && latest ? { date: recent[recent.length - 1].date, period: latest } : null;
      const missing = errorCell(
        "#N/A",
        `${symbol}: the metric catalog gives no latest fiscal period for ${metric} to label its quarters from.`,
      );
      const byDate = new Map<string, CellValue>();
      pairs.forEach((pair, i) => {
        const result = results[i];
        if (pair.symbol !== symbol || !isFinancial(pair.metric) || result.kind !== "points") return;
        for (const point of result.points)
          byDate.set(point.date, anchor ? fiscalLabel(fiscalPeriodOn(point.date, anchor)) : missing);
      });
      return { header: fiscalHeader(symbol), byDate };
    }),
  );
}
