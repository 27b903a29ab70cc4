/**
 * Where provenance's per-value time goes (issue 38), part by part, over the
 * add-in's own modules: 1,000 values (200 symbols × 5 metrics, an answer log
 * holding each pair's answer) through the call records (begin, settle),
 * provenanceOf (src/functions/provenance.ts), the properties
 * (src/office/cells/value-properties.ts), the value Excel is handed
 * (toExcelValue at ExcelApi 1.19 and 1.16) and the payload guard's count of
 * the properties (propertiesBytes, for tables). The first 1,000 (cold code)
 * and the mean of 20 more. Prints figures; asserts nothing.
 *
 *   npx tsx bench/provenance-parts.ts
 */
import { performance } from "node:perf_hooks";
import type { MarketDataClient } from "../src/api";
import { AnswerLog } from "../src/api/answer-log";
import type { Provenance } from "../src/core/provenance";
import type { CallContext } from "../src/functions/call-context";
import { provenanceOf } from "../src/functions/provenance";
import { type FormattedNumberCell, toExcelValue } from "../src/office/cells/cell-values";
import { propertiesBytes, provenanceProperties } from "../src/office/cells/value-properties";
import { type CallHandle, CallRecords } from "../src/office/call-records";

const SYMBOLS = Array.from({ length: 200 }, (_, i) => `sym${i}`);
const METRICS = ["PRICE", "FEES", "DAU", "TXNS", "TVL"];
const TODAY = "2026-11-29";
const WARM_PASSES = 20;

const log = new AnswerLog();
const fetchedAt = Date.now();
for (const symbol of SYMBOLS)
  for (const metric of METRICS)
    log.note({
      symbol,
      metric,
      source: "service",
      fetchedAt,
      from: "2026-10-30",
      to: TODAY,
      request: { address: "/data/api/", at: fetchedAt, ms: 100 },
    });
const client = { answers: log } as unknown as MarketDataClient;
const records = new CallRecords(() => log);
const WORDS = { description: "The daily closing price in US dollars", unit: "USD" };

type Parts = Record<string, number>;

function pass(parts: Parts): void {
  const timed = (name: string, work: () => void) => {
    const started = performance.now();
    work();
    parts[name] = (parts[name] ?? 0) + performance.now() - started;
  };
  const handles: CallHandle[] = [];
  const provenances: Provenance[] = [];
  const cells: FormattedNumberCell[] = [];
  timed("records.begin", () => {
    for (const symbol of SYMBOLS)
      for (const metric of METRICS) handles.push(records.begin("LATEST", [symbol, metric, null, null]));
  });
  timed("provenanceOf", () => {
    let i = 0;
    for (const symbol of SYMBOLS)
      for (const metric of METRICS) {
        const ctx: CallContext = { client, today: TODAY, call: {}, cellFormats: true, cellProperties: true };
        ctx.dateSystem = 1900;
        ctx.record = handles[i++];
        provenances.push(provenanceOf(ctx, symbol, metric, { date: "2026-11-28" }, WORDS)!);
      }
  });
  timed("toExcelValue at 1.19", () => {
    for (const p of provenances) cells.push(toExcelValue(123.45, "$#,##0.00", "double", p) as FormattedNumberCell);
  });
  timed("toExcelValue at 1.16", () => {
    for (const p of provenances) toExcelValue(123.45, "$#,##0.00", "formatted-number", p);
  });
  timed("provenanceProperties", () => {
    for (const p of provenances) provenanceProperties(p);
  });
  timed("propertiesBytes", () => {
    for (const cell of cells) propertiesBytes(cell.properties!);
  });
  timed("records settle", () => {
    for (const handle of handles) handle.settle();
  });
}

const shown = (parts: Parts, divisor: number) =>
  Object.entries(parts)
    .map(([name, ms]) => `| ${name} | ${(ms / divisor).toFixed(2)} |`)
    .join("\n");
const cold: Parts = {};
pass(cold);
const warm: Parts = {};
for (let i = 0; i < WARM_PASSES; i++) pass(warm);
console.log(`\nms per 1,000 values, the first pass (cold code)\n\n| part | ms |\n|---|---:|\n${shown(cold, 1)}`);
console.log(
  `\nms per 1,000 values, mean of ${WARM_PASSES} more\n\n| part | ms |\n|---|---:|\n${shown(warm, WARM_PASSES)}`,
);
