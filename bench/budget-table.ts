/** One row of a Budgets table (DESIGN.md "Budgets"), and the table the benchmarks print and BENCHMARKS.md keeps. */
export interface Budget {
  name: string;
  limit: string;
  measured: string;
  ok: boolean;
  /** Enforced: CI fails when it is exceeded (deterministic figures: sizes, requests, answers); else printed only. */
  enforced: boolean;
}

export function budgetTable(list: readonly Budget[]): string {
  const rows = list.map(
    (b) =>
      `| ${b.name} | ${b.limit} | ${b.measured} | ${b.ok ? "ok" : b.enforced ? "**EXCEEDED**" : "over target"} | ${b.enforced ? "yes" : "no (printed)"} |`,
  );
  return ["| budget | limit | measured | | fails CI |", "|---|---:|---:|---|---|", ...rows].join("\n");
}
