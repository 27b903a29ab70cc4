/**
 * Shaping cost of MD.SERIES's largest everyday request: 50 symbols × 5 metrics
 * × 1,000 daily points into one table (DESIGN budget: under 50 ms). Prints
 * figures; asserts nothing. Run: npx tsx bench/series-shaping.ts
 */
import type { DataPoint, SeriesResult } from "../src/core/domain";
import { addDays } from "../src/core/calendar";
import { SERIES_OPTIONS, type SeriesColumn, seriesHeader, shapeSeriesTable } from "../src/core/series-table";
import { parseOptions } from "../src/core/options";

function columns(symbols: number, metrics: number, points: number, gapEvery: number): SeriesColumn[] {
  const dates = Array.from({ length: points }, (_, i) => addDays("2021-01-01", i));
  const result: SeriesColumn[] = [];
  for (let s = 0; s < symbols; s++) {
    for (let m = 0; m < metrics; m++) {
      const series: DataPoint[] = [];
      for (let i = 0; i < points; i++)
        if (gapEvery === 0 || (i + s + m) % gapEvery !== 0)
          series.push({ date: dates[i], val: 1000 + Math.sin(i + s * 7 + m) * 100 });
      result.push({
        header: seriesHeader(`sym${s}`, `METRIC_${m}`),
        result: { kind: "points", points: series } as SeriesResult,
      });
    }
  }
  return result;
}

function measure(label: string, input: SeriesColumn[], optionsText: string | null, runs = 20): void {
  const options = parseOptions(optionsText, SERIES_OPTIONS);
  shapeSeriesTable(input, options); // warm-up
  const times: number[] = [];
  let cells = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const table = shapeSeriesTable(input, options);
    times.push(performance.now() - started);
    cells = table.length * table[0].length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} cells ${String(cells).padStart(7)}  median ${times[Math.floor(runs / 2)].toFixed(1).padStart(6)} ms  max ${times[runs - 1].toFixed(1).padStart(6)} ms`,
  );
}

const aligned = columns(50, 5, 1000, 0);
const gappy = columns(50, 5, 1000, 7);
measure("50×5×1000, shared dates", aligned, null);
measure("50×5×1000, gaps (union merge), fill=prev", gappy, "fill=prev");
measure("50×5×1000, weekdays, desc, fill=na", gappy, "days=weekdays; order=desc; fill=na");
measure("50×5×1000, transpose", aligned, "transpose=true");
