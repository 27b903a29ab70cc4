import { fiscalLabel, fiscalPeriodOn, parseFiscalPeriod, shiftQuarters } from "../../src/core/fiscal";

describe("fiscal period labels", () => {
  it.each([
    ["FY2025 Q4", { year: 2025, quarter: 4 }],
    ["fy2024q1", { year: 2024, quarter: 1 }],
    [" FY 2023 Q2 ", { year: 2023, quarter: 2 }],
    ["Q3 FY2022", { year: 2022, quarter: 3 }],
    ["FY2025 Q5", null],
    ["2025-Q4", null],
    ["", null],
    [null, null],
  ])("%j → %j", (text, expected) => {
    expect(parseFiscalPeriod(text)).toEqual(expected);
  });

  it("counts quarters across fiscal years", () => {
    expect(fiscalLabel(shiftQuarters({ year: 2024, quarter: 1 }, -1))).toBe("FY2023 Q4");
    expect(fiscalLabel(shiftQuarters({ year: 2024, quarter: 4 }, 1))).toBe("FY2025 Q1");
    expect(fiscalLabel(shiftQuarters({ year: 2024, quarter: 3 }, -9))).toBe("FY2022 Q2");
  });

  // A 52/53-week calendar (quarters ending on the last Saturday of Mar, Jun, Sep, Dec; the year in September).
  it.each([
    ["2024-06-29", "FY2024 Q3"],
    ["2024-03-30", "FY2024 Q2"],
    ["2023-12-30", "FY2024 Q1"],
    ["2023-09-30", "FY2023 Q4"],
    ["2022-09-24", "FY2022 Q4"],
    ["2019-12-28", "FY2020 Q1"],
  ])("the quarter ending %s is %s, counted from FY2024 Q3 ending 2024-06-29", (date, label) => {
    expect(fiscalLabel(fiscalPeriodOn(date, { date: "2024-06-29", period: { year: 2024, quarter: 3 } }))).toBe(label);
  });
});
