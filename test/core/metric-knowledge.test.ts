import type { DataPoint } from "../../src/core/domain";
import { addDays, isWeekend } from "../../src/core/calendar";
import {
  FCF_DERIVED_RATIOS,
  FINANCIAL_METRICS,
  isFcfDerived,
  isFinancial,
  looksSparse,
  naturalGranularity,
} from "../../src/core/metric-knowledge";

describe("metric knowledge", () => {
  it("knows the seven financials and the three FCF ratios from the interface description", () => {
    expect([...FINANCIAL_METRICS].sort()).toEqual(
      [
        "TOTAL_REVENUE",
        "NET_INCOME",
        "EBITDA",
        "OPERATING_INCOME",
        "FREE_CASH_FLOW",
        "BASIC_EPS",
        "DILUTED_EPS",
      ].sort(),
    );
    expect([...FCF_DERIVED_RATIOS].sort()).toEqual([
      "ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW",
      "FCF_YIELD",
      "MARKET_CAP_DIVIDE_FREE_CASH_FLOW",
    ]);
    expect(isFinancial("EBITDA")).toBe(true);
    expect(isFinancial("ENTERPRISE_VALUE_DIVIDE_EBITDA")).toBe(false);
    expect(isFcfDerived("FCF_YIELD")).toBe(true);
    expect(isFcfDerived("EARNINGS_YIELD")).toBe(false);
    expect(naturalGranularity("NET_INCOME")).toBe("QUARTER");
    expect(naturalGranularity("PRICE")).toBe("DAY");
  });

  const weekdays = (start: string, end: string): DataPoint[] => {
    const points: DataPoint[] = [];
    for (let d = start; d <= end; d = addDays(d, 1)) if (!isWeekend(d)) points.push({ date: d, val: 1 });
    return points;
  };

  it.each([
    ["empty", [] as DataPoint[], true],
    ["every weekday", weekdays("2024-04-01", "2024-04-30"), false],
    ["the last week only", weekdays("2024-04-24", "2024-04-30"), true],
    ["from the 4th (after a weekend)", weekdays("2024-04-04", "2024-04-30"), false],
    ["from the 15th: the quirk's late start", weekdays("2024-04-15", "2024-04-30"), true],
    ["every other weekday", weekdays("2024-04-01", "2024-04-30").filter((_, i) => i % 3 === 0), true],
  ])("a daily April window with %s looks sparse: %s", (_, points, sparse) => {
    expect(looksSparse(points, "2024-04-01", "2024-04-30", "DAY")).toBe(sparse);
  });

  it("judges coarser granularities by periods", () => {
    const monthly = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ date: `2023-${String(i + 1).padStart(2, "0")}-28`, val: 1 }));
    expect(looksSparse(monthly(12), "2023-01-01", "2023-12-31", "MONTH")).toBe(false);
    expect(looksSparse(monthly(3), "2023-01-01", "2023-12-31", "MONTH")).toBe(true);
  });
});
