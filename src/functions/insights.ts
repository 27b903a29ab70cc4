/** MD.INSIGHTS: an insight feed's cards as a table. */
import type { CellValue } from "../core/cell";
import { parseFeed, shapeFormattedInsightsTable } from "../core/insights-table";
import type { FormattedTable } from "../core/number-format";
import { parseSearch } from "../core/text-search";
import { NoDataError } from "../core/errors";
import type { CallContext } from "./call-context";

export interface InsightsArgs {
  feed: unknown;
  search?: unknown;
  flag?: unknown;
}

/**
 * Every cell settles within 60 s (DESIGN "Budgets": Excel on Mac abandons a
 * request at 60 s, office-js #1184). A feed's first call in an hour can take a
 * minute on the service's side; past this deadline the cell says so while the
 * load carries on in the background, and the next Refresh all finds the feed
 * in the client's cache.
 */
export const INSIGHTS_CELL_DEADLINE_MS = 58_000;

export async function insightsTable(
  ctx: CallContext,
  args: InsightsArgs,
  deadlineMs = INSIGHTS_CELL_DEADLINE_MS,
): Promise<CellValue[][]> {
  return (await formattedInsightsTable(ctx, args, deadlineMs)).rows;
}

export async function formattedInsightsTable(
  ctx: CallContext,
  args: InsightsArgs,
  deadlineMs = INSIGHTS_CELL_DEADLINE_MS,
): Promise<FormattedTable> {
  const feed = parseFeed(args.feed);
  const filters = { search: parseSearch(args.search), flag: parseSearch(args.flag) };
  const load = ctx.client.getInsights(feed, ctx.call);
  load.catch(() => undefined); // a failure after the deadline is the next call's to report
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const cards = await Promise.race([
      load,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new NoDataError(
                `The service is still preparing the ${feed} insight feed (its first call in an hour can take a minute). It keeps loading: in a minute, use Refresh all (Data tab ▸ Market Data) or re-enter the formula.`,
              ),
            ),
          deadlineMs,
        );
      }),
    ]);
    return shapeFormattedInsightsTable(feed, cards, filters, ctx.dateSystem);
  } finally {
    clearTimeout(timer);
  }
}
