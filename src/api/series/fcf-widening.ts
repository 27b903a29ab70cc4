/**
 * A rule of the service: the free-cash-flow ratios are computed only from the
 * first fiscal period end inside the window asked for, so a short window comes
 * back empty or sparse although the data exists. The client undoes the quirk
 * by asking again over a wider window and handing back the readings inside
 * the window asked for, so every caller (custom functions, the pane's preview)
 * sees the same series.
 */
import { addMonths } from "../../core/calendar";
import type { SeriesResult } from "../../core/domain";
import { isFcfDerived, looksSparse } from "../../core/metric-knowledge";
import { readingsOf } from "../../core/readings";
import type { SeriesRequest } from "../types";

/** How far back the start moves, one step after the other, when a FCF ratio comes back sparse. */
export const FCF_WIDENING_MONTHS = [12, 24] as const;

/** Whether an answer to `req` may need widening: only FCF ratios over a window with a start. */
export function mayWiden(req: SeriesRequest): boolean {
  return isFcfDerived(req.metric) && req.start !== undefined;
}

/**
 * The answer to `req` given its first answer `first`: `first` itself unless it
 * looks like the quirk, else the best of up to two wider answers (`ask` reads
 * one). An open window ends `today`. `keep`: the widened answer is returned
 * whole instead of cut back to the window (MD.LATEST wants the last reading
 * wherever it is).
 */
export async function widenSparseFcf(
  req: SeriesRequest,
  first: SeriesResult,
  today: string,
  keep: boolean,
  ask: (wider: SeriesRequest) => Promise<SeriesResult>,
): Promise<SeriesResult> {
  const start = req.start;
  if (!isFcfDerived(req.metric) || start === undefined || first.kind !== "points") return first;
  const end = req.end ?? today;
  const granularity = req.granularity ?? "DAY";
  if (!looksSparse(readingsOf(first.points), start, end, granularity)) return first;

  let best = first;
  for (const months of FCF_WIDENING_MONTHS) {
    const wider = await ask({ ...req, start: addMonths(start, -months) });
    if (wider.kind !== "points") break;
    const inWindow = wider.points.filter((point) => point.date >= start && point.date <= end);
    const candidate = keep ? wider.points : inWindow;
    if (readingsOf(candidate).length > readingsOf(best.points).length) best = { kind: "points", points: candidate };
    if (!looksSparse(readingsOf(inWindow), start, end, granularity)) break;
  }
  return best;
}
