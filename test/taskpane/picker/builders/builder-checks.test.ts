/**
 * The builders' formula text and field checks (src/taskpane/picker/builders/builder-checks.ts):
 * what each builder writes for the fields a user fills, the arguments it hands
 * the function for the preview (the ones Excel passes for that formula), and
 * the refusals, worded as the cell would word them, under the right field.
 */
import {
  checkAgg,
  checkFlows,
  checkLatest,
  checkSeries,
  checkSnapshot,
  checkSupply,
  type BuilderEnv,
} from "../../../../src/taskpane/picker/builders/builder-checks";
import { DEFAULT_SERIES_OPTIONS, flowTypeText } from "../../../../src/taskpane/picker/formula-text";

const env: BuilderEnv = { today: "2024-06-15", dateLocale: "en-US" };

function ok<A>(checked: { ok: true; formula: string; args: A } | { ok: false; errors: Record<string, string> }) {
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.errors)}`);
  return checked;
}
function refused(checked: { ok: boolean; errors?: Record<string, string> }): Record<string, string> {
  if (checked.ok) throw new Error("accepted");
  return checked.errors ?? {};
}

describe("MD.SERIES and MD.LATEST builder", () => {
  const series = { symbol: "eth", metric: "PRICE", start: "-1Y", end: "TODAY", granularity: "DAY" as const };

  it("MD.SERIES: the formula, and the arguments Excel passes for it (lists and options as one-cell ranges)", () => {
    const plain = ok(checkSeries({ ...series, options: DEFAULT_SERIES_OPTIONS }, env));
    expect(plain.formula).toBe('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")');
    expect(plain.args).toEqual({
      symbols: [["eth"]],
      metrics: [["PRICE"]],
      start: "-1Y",
      end: "TODAY",
      granularity: "DAY",
      options: null,
    });
    const typed = ok(
      checkSeries(
        {
          ...series,
          start: "01/15/2023",
          end: "",
          granularity: "MONTH",
          options: { headers: false, order: "desc", last: 4 },
        },
        env,
      ),
    );
    expect(typed.formula).toBe('=MD.SERIES("eth","PRICE","2023-01-15",,"MONTH","headers=false; order=desc; last=4")');
    expect(typed.args).toMatchObject({
      start: "2023-01-15",
      end: null,
      granularity: "MONTH",
      options: [["headers=false; order=desc; last=4"]],
    });
  });

  it("MD.SERIES refuses a start or an end the function would refuse, under that field", () => {
    expect(
      refused(checkSeries({ ...series, start: "not-a-date", options: DEFAULT_SERIES_OPTIONS }, env)).start,
    ).toMatch(/not-a-date/);
    expect(refused(checkSeries({ ...series, end: "13/45/2024", options: DEFAULT_SERIES_OPTIONS }, env)).end).toMatch(
      /not a date written MM\/DD\/YYYY/,
    );
  });

  it("MD.LATEST: the as-of date typed the user's way, omitted when empty; a bad one refused under As of", () => {
    const today = ok(checkLatest({ symbol: "eth", metric: "PRICE", asOf: "" }, env));
    expect(today.formula).toBe('=MD.LATEST("eth","PRICE")');
    expect(today.args).toEqual({ symbol: "eth", metric: "PRICE", asOf: null });
    const typed = ok(checkLatest({ symbol: "eth", metric: "PRICE", asOf: "1/31/2024" }, env));
    expect(typed.formula).toBe('=MD.LATEST("eth","PRICE","2024-01-31")');
    expect(typed.args.asOf).toBe("2024-01-31");
    expect(refused(checkLatest({ symbol: "eth", metric: "PRICE", asOf: "yesterday" }, env)).asOf).toMatch(/yesterday/);
  });
});

describe("MD.AGG builder", () => {
  it("writes the window, the statistic and the as-of date; a default statistic and today are omitted", () => {
    expect(ok(checkAgg({ symbol: "eth", metric: "FEES", window: "30D", stat: "", asOf: "" }, env)).formula).toBe(
      '=MD.AGG("eth","FEES","30D")',
    );
    const full = ok(
      checkAgg({ symbol: "eth", metric: "PRICE", window: "ytd", stat: "PCT_CHANGE", asOf: "06/28/2024" }, env),
    );
    expect(full.formula).toBe('=MD.AGG("eth","PRICE","ytd","PCT_CHANGE","2024-06-28")');
    expect(full.args).toEqual({
      symbol: "eth",
      metric: "PRICE",
      window: "ytd",
      stat: "PCT_CHANGE",
      asOf: "2024-06-28",
    });
    expect(ok(checkAgg({ symbol: "eth", metric: "TVL", window: "-6M", stat: "MAX", asOf: "" }, env)).formula).toBe(
      '=MD.AGG("eth","TVL","-6M","MAX")',
    );
  });

  it("refuses a window, a date or a statistic the function would refuse, under that field", () => {
    expect(refused(checkAgg({ symbol: "eth", metric: "FEES", window: "30", stat: "", asOf: "" }, env)).window).toMatch(
      /^"30" is not a window\. Use 7D, 30D/,
    );
    expect(refused(checkAgg({ symbol: "eth", metric: "FEES", window: "", stat: "", asOf: "" }, env)).window).toMatch(
      /^is required\. Use 7D/,
    );
    expect(
      refused(checkAgg({ symbol: "eth", metric: "FEES", window: "30D", stat: "", asOf: "13/45/2024" }, env)).asOf,
    ).toMatch(/not a date written MM\/DD\/YYYY/);
    expect(
      refused(checkAgg({ symbol: "eth", metric: "FEES", window: "30D", stat: "MEDIAN", asOf: "" }, env)).stat,
    ).toMatch(/MEDIAN/);
  });
});

describe("MD.SUPPLY builder", () => {
  it("writes the window; DAY, the default granularity, is omitted", () => {
    expect(ok(checkSupply({ symbol: "usdc", start: "-3M", end: "TODAY", granularity: "WEEK" }, env)).formula).toBe(
      '=MD.SUPPLY("usdc","-3M","TODAY","WEEK")',
    );
    const daily = ok(checkSupply({ symbol: "usdc", start: "2024-05-26", end: "2024-05-28", granularity: "DAY" }, env));
    expect(daily.formula).toBe('=MD.SUPPLY("usdc","2024-05-26","2024-05-28")');
    expect(daily.args).toEqual({ symbol: "usdc", start: "2024-05-26", end: "2024-05-28", granularity: null });
    expect(ok(checkSupply({ symbol: "usdc", start: "", end: "", granularity: "DAY" }, env)).formula).toBe(
      '=MD.SUPPLY("usdc")',
    );
  });

  it("refuses a start after the end, under Start", () => {
    expect(
      refused(checkSupply({ symbol: "usdc", start: "2024-05-28", end: "2024-05-01", granularity: "DAY" }, env)).start,
    ).toBe("2024-05-28 is after the end date 2024-05-01. Give a start on or before the end.");
  });
});

describe("MD.SNAPSHOT builder", () => {
  it("writes the assets and metrics as comma lists, and only the options that differ from the defaults", () => {
    const plain = ok(
      checkSnapshot(
        {
          symbols: "eth, sol,, eq-coin ",
          metrics: "PRICE,L30_FEES",
          asOf: "2024-06-28",
          headers: true,
          transpose: false,
        },
        env,
      ),
    );
    expect(plain.formula).toBe('=MD.SNAPSHOT("eth, sol, eq-coin","PRICE, L30_FEES","2024-06-28")');
    expect(plain.args).toEqual({
      symbols: [["eth, sol, eq-coin"]],
      metrics: [["PRICE, L30_FEES"]],
      asOf: "2024-06-28",
      options: null,
    });
    const shaped = ok(
      checkSnapshot({ symbols: "eth", metrics: "PRICE", asOf: "", headers: false, transpose: true }, env),
    );
    expect(shaped.formula).toBe('=MD.SNAPSHOT("eth","PRICE",,"headers=false; transpose=true")');
    expect(shaped.args.options).toEqual([["headers=false; transpose=true"]]);
  });

  it("refuses an empty list and a name the functions would refuse", () => {
    expect(
      refused(checkSnapshot({ symbols: " , ", metrics: "PRICE", asOf: "", headers: true, transpose: false }, env))
        .symbols,
    ).toMatch(/symbol/i);
    expect(
      refused(checkSnapshot({ symbols: "eth", metrics: "PRICE!", asOf: "", headers: true, transpose: false }, env))
        .metrics,
    ).toMatch(/PRICE!/);
  });
});

describe("MD.FLOWS builder", () => {
  const base = {
    chains: ["ethereum", "solana"],
    start: "-1M",
    end: "TODAY",
    flowTypes: ["NETFLOW" as const],
    headers: true,
    top: "",
  };

  it("writes the chains, leaves granularity empty, and writes flow types and options only when not the defaults", () => {
    expect(ok(checkFlows(base, env)).formula).toBe('=MD.FLOWS("ethereum, solana","-1M","TODAY")');
    const all = ok(checkFlows({ ...base, flowTypes: ["OUTFLOW", "NETFLOW", "INFLOW"], top: "2", headers: false }, env));
    expect(all.formula).toBe('=MD.FLOWS("ethereum, solana","-1M","TODAY",,"ALL","headers=false; top=2")');
    expect(all.args).toEqual({
      sourceChains: [["ethereum, solana"]],
      start: "-1M",
      end: "TODAY",
      granularity: null,
      flowType: "ALL",
      options: [["headers=false; top=2"]],
    });
    expect(ok(checkFlows({ ...base, flowTypes: ["INFLOW", "OUTFLOW"] }, env)).formula).toBe(
      '=MD.FLOWS("ethereum, solana","-1M","TODAY",,"INFLOW, OUTFLOW")',
    );
  });

  it("refuses no chain, no flow, a top that is not a whole number, and a bad date", () => {
    expect(refused(checkFlows({ ...base, chains: [] }, env)).chains).toBe("Choose at least one chain.");
    expect(refused(checkFlows({ ...base, flowTypes: [] }, env)).flowTypes).toBe("Choose at least one flow.");
    // The cell's own words and range: top=200000 is refused in the pane as it would be in the cell.
    for (const top of ["2.5", "0", "200000"])
      expect(refused(checkFlows({ ...base, top }, env)).top).toBe(
        `top="${top}" is not accepted. Use a whole number from 1 to 100000, e.g. top=10.`,
      );
    expect(refused(checkFlows({ ...base, end: "yesterday" }, env)).end).toMatch(/"yesterday" is not a date/);
    expect(refused(checkFlows({ ...base, chains: ["eth chain"] }, env)).chains).toMatch(/eth chain/);
  });

  it("flow types: NETFLOW alone is the default (omitted), all three are ALL, others a list in the function's order", () => {
    expect(flowTypeText(["NETFLOW"])).toBeUndefined();
    expect(flowTypeText(["INFLOW", "NETFLOW", "OUTFLOW"])).toBe("ALL");
    expect(flowTypeText(["OUTFLOW", "INFLOW"])).toBe("INFLOW, OUTFLOW");
  });
});
