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
import type { DatedWindow, SeriesResult } from "../../core/domain";
import { hasValue } from "../../core/readings";
import { mergeParts } from "./windows";

/** Where the whole history starts when no start date is given: nothing Excel can show is older. */
export const HISTORY_FLOOR = "1900-01-01";

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
