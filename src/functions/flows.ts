/** MD.FLOWS: chain-level flows for a set of source chains. */
import { describeValue, isOmitted, parseDateWindow, parseSymbols } from "../core/arguments";
import type { CellValue } from "../core/cell";
import { ArgumentError } from "../core/errors";
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

/**
 * The service answers one total per chain over the window (interface 2.8): no
 * time axis, so a granularity could change nothing (the sandbox ignores it). A
 * formula that gives one is refused rather than silently ignored; the parameter
 * keeps its place so the arguments after it keep theirs.
 */
function refuseGranularity(value: unknown): void {
  if (isOmitted(value)) return;
  throw new ArgumentError(
    "granularity",
    `${describeValue(value)} changes nothing: MD.FLOWS gives one total per chain over the whole window. Leave granularity empty; for totals per period, use one MD.FLOWS per period (its start and end).`,
  );
}

/** Flows are USD amounts (interface 4.2's totals per chain). */
const USD = { kind: "currency", currency: "USD" } as const;

export async function formattedFlowsTable(ctx: CallContext, args: FlowsArgs): Promise<FormattedTable> {
  const sourceChains = parseSymbols(args.sourceChains, "source_chains");
  const window = parseDateWindow(args.start, args.end, ctx.today, ctx.dateSystem);
  refuseGranularity(args.granularity);
  const flowTypes = parseFlowTypes(args.flowType);
  const options = parseOptions(args.options, FLOWS_OPTIONS);
  const result = await ctx.client.getFlows(
    {
      sourceChains,
      flowTypes,
      ...(window.start ? { start: window.start } : {}),
      ...(window.end ? { end: window.end } : {}),
    },
    ctx.call,
  );
  const rows = shapeFlowsTable(result, flowTypes, options);
  return { rows, formatAt: (_row, _column, value) => numberFormatFor(USD, value) };
}
