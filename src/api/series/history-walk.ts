/**
 * Reading a window longer than one request, newest part first, stopping where
 * the data ends. The service answers at most 1,000 points per series, so a
 * long window is asked for in parts (series/windows.ts); asking for every
 * part of a window that reaches centuries before any data (MD.AGG(…,"-1900Y"),
 * or the whole history when no start is given) would cost hundreds of
 * requests for nothing. Walking backwards from the end costs what the data
 * holds: the parts with data, then the first part without any, where the walk
 * stops.
 *
 * When the newest part is empty (an asset that stopped trading, a window that
 * ends in a gap) one request over everything older tells whether there is
 * anything at all to walk to; the service answers it at most 1,000 points,
 * enough to know.
 */
import type { DatedWindow, SeriesResult, SeriesWindow } from "../../core/domain";
import { hasValue } from "../../core/readings";
import { mergeParts, splitWindow } from "./windows";

/**
 * The earliest day the client asks the service about, by kind of asset; a
 * window reaching further back (no start: the whole history; MD.AGG's
 * "-1900Y") is read from there. The walk below stops where the data ends, but
 * only a floor bounds it against a service that answers data for any date
 * (the parts of a window centuries long would each cost a request):
 *
 * - crypto assets: 2009-01-03, the day of Bitcoin's first block. No crypto
 *   asset has a market, a chain or a stablecoin before it.
 * - equities (`eq-…`): 2000-01-01. The service's equities are crypto-related
 *   companies, most listed long after; a daily walk from here is at most
 *   ⌈days since 2000 / 1,000⌉ requests (10 in 2026).
 *
 * From the floors, the whole daily history is 7 requests for a crypto asset
 * in 2026 (one more every 2.7 years), and MD.AGG(…,"-1900Y") the same: well
 * within the budget of 12 (DESIGN.md, "Budgets").
 */
export const CRYPTO_EARLIEST = "2009-01-03";
export const EQUITY_EARLIEST = "2000-01-01";

export function earliestDataDate(symbol: string): string {
  return symbol.startsWith("eq-") ? EQUITY_EARLIEST : CRYPTO_EARLIEST;
}

/** What a window that ends before any data the service can have is answered with, without asking. */
export function beforeHistoryMessage(symbol: string, end: string): string {
  const floor = earliestDataDate(symbol);
  const kind = floor === CRYPTO_EARLIEST ? "crypto asset (Bitcoin's first block)" : "equity";
  return `No data before ${floor} for a ${kind}: the window ends ${end}.`;
}

/**
 * A checked window with explicit dates — an omitted start is the whole history from the asset kind's earliest
 * data, an omitted end `today` (the service answers a request without dates with bare latest numbers) — split
 * into the parts the service answers whole, in date order; or, for a window that ends before any data, its
 * message: nothing is asked about before the floor, a bounded cost.
 */
export function historyParts(
  symbol: string,
  window: SeriesWindow,
  today: string,
  maxPointsPerRequest: number,
): DatedWindow[] | SeriesResult {
  const end = window.end ?? today;
  const floor = earliestDataDate(symbol);
  if (end < floor) return { kind: "message", message: beforeHistoryMessage(symbol, end) };
  const start = window.start === undefined || window.start < floor ? floor : window.start;
  return splitWindow({ start, end }, window.granularity, today, maxPointsPerRequest).map((part) => ({
    start: part.start ?? start,
    end: part.end ?? end,
  }));
}

function holdsData(result: SeriesResult): boolean {
  return result.kind === "points" && result.points.some(hasValue);
}

/**
 * `parts` in date order, contiguous, each with both dates (every series
 * request carries both); `load` reads one part (or the probe of everything
 * older). The answer is the parts read, merged in date order; a message in
 * place of the newest part (an unsupported pair) is the answer.
 */
export async function walkBackwards(
  parts: readonly DatedWindow[],
  load: (part: DatedWindow) => Promise<SeriesResult>,
): Promise<SeriesResult> {
  const read: SeriesResult[] = [];
  let found = false;
  let probed = false;
  for (let i = parts.length - 1; i >= 0; i--) {
    const result = await load(parts[i]!);
    if (result.kind === "message") {
      if (read.length === 0) return result;
      break;
    }
    if (holdsData(result)) {
      read.push(result);
      found = true;
      continue;
    }
    if (found) break; // the data ends here
    read.push(result);
    if (i >= 2 && !probed) {
      probed = true;
      const older = await load({ start: parts[0]!.start, end: parts[i - 1]!.end });
      if (!holdsData(older)) break;
    }
  }
  return read.length === 0 ? { kind: "points", points: [] } : mergeParts(read.reverse());
}
