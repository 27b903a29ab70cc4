/** MD.INSIGHTS: an insight feed's cards as a table. */
import type { CellValue } from "../core/cell";
import { parseFeed, shapeFormattedInsightsTable } from "../core/insights-table";
import type { FormattedTable } from "../core/number-format";
import { parseSearch } from "../core/text-search";
import type { CallContext } from "./call-context";

export interface InsightsArgs {
  feed: unknown;
  search?: unknown;
  flag?: unknown;
}

export async function insightsTable(ctx: CallContext, args: InsightsArgs): Promise<CellValue[][]> {
  return (await formattedInsightsTable(ctx, args)).rows;
}

export async function formattedInsightsTable(ctx: CallContext, args: InsightsArgs): Promise<FormattedTable> {
  const feed = parseFeed(args.feed);
  const filters = { search: parseSearch(args.search), flag: parseSearch(args.flag) };
  return shapeFormattedInsightsTable(feed, await ctx.client.getInsights(feed, ctx.call), filters);
}
