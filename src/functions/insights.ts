/** MD.INSIGHTS: an insight feed's cards as a table. */
import type { CellValue } from "../core/cell";
import { parseFeed, shapeInsightsTable } from "../core/insights-table";
import { parseSearch } from "../core/text-search";
import type { CallContext } from "./call-context";

export interface InsightsArgs {
  feed: unknown;
  search?: unknown;
  flag?: unknown;
}

export async function insightsTable(ctx: CallContext, args: InsightsArgs): Promise<CellValue[][]> {
  const feed = parseFeed(args.feed);
  const filters = { search: parseSearch(args.search), flag: parseSearch(args.flag) };
  return shapeInsightsTable(feed, await ctx.client.getInsights(feed, ctx.call), filters, ctx.dateSystem);
}
