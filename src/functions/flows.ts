/** MD.FLOWS: chain-level flows for a set of source chains. */
import { isOmitted, parseDateWindow, parseGranularity, parseSymbols } from "../core/arguments";
import type { CellValue } from "../core/cell";
import { FLOWS_OPTIONS, parseFlowTypes, shapeFlowsTable } from "../core/flows-table";
import { type FormattedTable, numberFormatFor } from "../core/number-format";
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
  return (await formattedFlowsTable(ctx, args)).rows;
}

/** Flows are USD amounts (interface 4.2's totals per chain). */
const USD = { kind: "currency", currency: "USD" } as const;

export async function formattedFlowsTable(ctx: CallContext, args: FlowsArgs): Promise<FormattedTable> {
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
  const rows = shapeFlowsTable(result, flowTypes, options);
  return { rows, formatAt: (_row, _column, value) => numberFormatFor(USD, value) };
}
