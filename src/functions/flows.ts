/** MD.FLOWS: chain-level flows for a set of source chains. */
import { isOmitted, parseDateWindow, parseGranularity, parseSymbols } from "../core/arguments";
import type { CellValue } from "../core/cell";
import { FLOWS_OPTIONS, parseFlowTypes, shapeFlowsTable } from "../core/flows-table";
import { parseOptions } from "../core/options";
import type { CallContext } from "./call-context";

export interface FlowsArgs {
  sourceChains: unknown;
  start?: unknown;
  end?: unknown;
  granularity?: unknown;
  flowType?: unknown;
  options?: unknown;
}

export async function flowsTable(ctx: CallContext, args: FlowsArgs): Promise<CellValue[][]> {
  const sourceChains = parseSymbols(args.sourceChains, "source_chains");
  const window = parseDateWindow(args.start, args.end, ctx.today, ctx.dateSystem);
  const granularity = isOmitted(args.granularity) ? undefined : parseGranularity(args.granularity, []);
  const flowTypes = parseFlowTypes(args.flowType);
  const options = parseOptions(args.options, FLOWS_OPTIONS);
  const result = await ctx.client.getFlows(
    {
      sourceChains,
      flowTypes,
      ...(window.start ? { startDate: window.start } : {}),
      ...(window.end ? { endDate: window.end } : {}),
      ...(granularity ? { granularity } : {}),
    },
    ctx.call,
  );
  return shapeFlowsTable(result, flowTypes, options);
}
