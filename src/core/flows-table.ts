/**
 * MD.FLOWS's table: one row per chain, one column per requested flow type
 * (amounts in USD), largest first by the first flow column.
 */
import type { FlowsResult, FlowType } from "./domain";
import { blankIfZero, describeValue, isOmitted } from "./arguments";
import { BLANK, type CellValue, textCell } from "./cell";
import { ArgumentError, NoDataError } from "./errors";
import type { OptionSpec, OptionValues } from "./options";
import { assertFitsExcel } from "./payload-size";

export const FLOWS_OPTIONS = {
  headers: { kind: "boolean", default: true },
  top: { kind: "count", max: 100_000, default: null },
} as const satisfies OptionSpec;

export type FlowsTableOptions = OptionValues<typeof FLOWS_OPTIONS>;

const FLOW_NAMES: Record<string, FlowType[]> = {
  NETFLOW: ["netflow"],
  NET: ["netflow"],
  INFLOW: ["inflow"],
  IN: ["inflow"],
  OUTFLOW: ["outflow"],
  OUT: ["outflow"],
  ALL: ["netflow", "inflow", "outflow"],
};

const FLOW_FORMS = "Use NETFLOW, INFLOW, OUTFLOW or ALL, or a comma list such as INFLOW, OUTFLOW.";

/** Flows are amounts of US dollars: the header says so. */
const FLOW_HEADERS: Record<FlowType, string> = {
  netflow: "Netflow (USD)",
  inflow: "Inflow (USD)",
  outflow: "Outflow (USD)",
};

/** Omitted → NETFLOW. Columns follow the order given; ALL is netflow, inflow, outflow. */
export function parseFlowTypes(value: unknown, argument = "flow_type"): FlowType[] {
  if (isOmitted(blankIfZero(value))) return ["netflow"];
  if (typeof value !== "string")
    throw new ArgumentError(argument, `${describeValue(value)} is not a flow type. ${FLOW_FORMS}`);
  const types: FlowType[] = [];
  for (const part of value.split(",")) {
    const name = part.trim().toUpperCase();
    if (!name) continue;
    const found = Object.prototype.hasOwnProperty.call(FLOW_NAMES, name) ? FLOW_NAMES[name] : undefined;
    if (!found) throw new ArgumentError(argument, `${JSON.stringify(part.trim())} is not a flow type. ${FLOW_FORMS}`);
    for (const type of found) if (!types.includes(type)) types.push(type);
  }
  if (types.length === 0) throw new ArgumentError(argument, `no flow type given. ${FLOW_FORMS}`);
  return types;
}

export function shapeFlowsTable(
  result: FlowsResult,
  flowTypes: readonly FlowType[],
  options: FlowsTableOptions,
): CellValue[][] {
  const chains: string[] = [];
  const seen = new Set<string>();
  for (const type of flowTypes) {
    for (const chain of Object.keys(result[type] ?? {})) {
      if (!seen.has(chain)) {
        seen.add(chain);
        chains.push(chain);
      }
    }
  }
  if (chains.length === 0) throw new NoDataError(`No ${flowTypes.join("/")} data for these chains in this window.`);

  const lead = result[flowTypes[0]];
  const sortKey = (chain: string) => flowValue(lead, chain) ?? -Infinity;
  chains.sort((a, b) => sortKey(b) - sortKey(a) || (a < b ? -1 : a > b ? 1 : 0));
  const shown = options.top !== null ? chains.slice(0, options.top) : chains;

  const rows: CellValue[][] = [];
  if (options.headers) rows.push(["Chain", ...flowTypes.map((type) => FLOW_HEADERS[type])]);
  for (const chain of shown) {
    rows.push([textCell(chain), ...flowTypes.map((type) => flowValue(result[type], chain) ?? BLANK)]);
  }
  assertFitsExcel(rows, "Use fewer source chains or the option top=N.");
  return rows;
}

/** A chain's own value: chains are the service's keys, and one named "constructor" must not read Object's. */
function flowValue(values: Record<string, number> | undefined, chain: string): number | undefined {
  return values && Object.prototype.hasOwnProperty.call(values, chain) ? values[chain] : undefined;
}
