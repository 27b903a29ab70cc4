/**
 * Charts, recorded rather than drawn: `Worksheet.charts.add(type,
 * sourceData, seriesBy)` (ExcelApi 1.1, Excel.ChartCollection,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartcollection),
 * `Chart.title.text` and `Chart.setPosition(start, end)` (1.1, Excel.Chart,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.chart), and
 * `ChartAxis.setCategoryNames(range)` / `reversePlotOrder` (1.7,
 * Excel.ChartAxis, https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartaxis).
 * A chart joins the log (StandInLog.charts) at the sync that adds it, and
 * reads as it stands after its batch.
 */
import { type Context, needs } from "./request-context";
import type { RecordedChart } from "./types";

export function makeChart(
  context: Context,
  sheetName: string,
  type: string,
  source: Record<string, unknown>,
  seriesBy?: string,
): Record<string, unknown> {
  const rangeText = (range: unknown) =>
    ((range as { __rectText?: () => string }).__rectText ?? (() => String(range)))();
  const chart: RecordedChart = {
    sheet: sheetName,
    type: String(type),
    source: "",
    seriesBy: String(seriesBy ?? "Auto"),
    categories: null,
    title: null,
    position: null,
  };
  context.queue.push(() => {
    chart.source = rangeText(source);
    context.model.log.charts.push(chart);
  });
  const title = {};
  Object.defineProperty(title, "text", {
    set: (text: string) => context.queue.push(() => void (chart.title = String(text))),
  });
  return {
    title,
    axes: {
      categoryAxis: Object.defineProperty(
        {
          setCategoryNames: (range: unknown) =>
            needs(context, "ChartAxis.setCategoryNames", "1.7", () => void (chart.categories = rangeText(range))),
        },
        "reversePlotOrder",
        {
          set: (reversed: boolean) =>
            needs(context, "ChartAxis.reversePlotOrder", "1.7", () => void (chart.reversePlotOrder = reversed)),
        },
      ),
    },
    setPosition: (start: unknown, end?: unknown) =>
      context.queue.push(() => {
        chart.position = { start: rangeText(start), end: end === undefined ? null : rangeText(end) };
      }),
  };
}
