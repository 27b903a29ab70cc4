import type { InsightCard } from "../../src/core/domain";
import {
  changePercent,
  durationText,
  filterInsights,
  insightCadence,
  readableCard,
  type CadenceFilter,
} from "../../src/taskpane/insights/insight-filter";
import { linePlot, type PlotBox } from "../../src/taskpane/shared/line-path";
import { httpUrl } from "../../src/taskpane/picker/safe-url";
import {
  formatBytes,
  formatExact,
  formatPercent,
  formatValue,
  formatWithNumberFormat,
} from "../../src/taskpane/shared/value-format";
import { searchRank, wordMatchRank } from "../../src/core/text-search";
import { hasHeaderRow, tableSizeText } from "../../src/taskpane/picker/builders/preview-table";

describe("safe-url: httpUrl", () => {
  it.each([
    ["https://docs.example.com/a?b=1#c", "https://docs.example.com/a?b=1#c"],
    ["http://127.0.0.1:3001/x", "http://127.0.0.1:3001/x"],
    ["  https://example.com  ", "https://example.com/"],
    ["HTTPS://EXAMPLE.COM/Path", "https://example.com/Path"],
    ["javascript:alert(1)", null],
    [" JaVaScRiPt:alert(1)", null],
    ["java\tscript:alert(1)", null],
    ["data:text/html,<script>alert(1)</script>", null],
    ["vbscript:msgbox(1)", null],
    ["file:///etc/passwd", null],
    ["ftp://example.com", null],
    ["mailto:a@example.com", null],
    ["//example.com/protocol-relative", null],
    ["/relative", null],
    ["not a url", null],
    ["", null],
    [null, null],
    [undefined, null],
  ])("%j → %j", (input, expected) => {
    expect(httpUrl(input)).toBe(expected);
  });
});

describe("line-path: linePlot", () => {
  const box: PlotBox = { width: 100, height: 50, padding: 5 };
  const r2 = (n: number) => Math.round(n * 100) / 100;

  /** Where each finite value should land, from the box alone. */
  function expectedPoints(values: number[]): ({ x: number; y: number } | null)[] {
    const finite = values.filter(Number.isFinite);
    const min = Math.min(...finite);
    const max = Math.max(...finite);
    const innerW = box.width - 2 * box.padding;
    const innerH = box.height - 2 * box.padding;
    return values.map((v, i) => {
      if (!Number.isFinite(v)) return null;
      const x = box.padding + (values.length > 1 ? (i * innerW) / (values.length - 1) : innerW / 2);
      const y = max === min ? box.padding + innerH / 2 : box.padding + ((max - v) / (max - min)) * innerH;
      return { x: r2(x), y: r2(y) };
    });
  }

  function parse(path: string): { cmd: string; x: number; y: number }[] {
    return path
      .split(" ")
      .filter(Boolean)
      .map((part) => {
        const [x, y] = part.slice(1).split(",").map(Number);
        return { cmd: part[0], x, y };
      });
  }

  it.each([
    { name: "rising", values: [1, 2, 3, 4] },
    { name: "falling with negatives", values: [10, -5, -20] },
    { name: "jagged", values: [3, 9, 1, 7, 7, 2, 8] },
    { name: "flat", values: [4, 4, 4] },
    { name: "single", values: [42] },
    { name: "huge range", values: [1e-9, 1e12, 5e11] },
    { name: "with a gap", values: [1, NaN, 3, 4] },
    { name: "with infinities", values: [Infinity, 2, 5, -Infinity, 1] },
  ])("$name: every finite value at its place, gaps lift the pen", ({ values }) => {
    const plot = linePlot(values, box);
    const expected = expectedPoints(values);
    const segments = parse(plot.path);
    const drawn = expected.filter((p): p is { x: number; y: number } => p !== null);
    expect(segments.map(({ x, y }) => ({ x, y }))).toEqual(drawn);
    // "M" where the line starts or resumes after a gap, "L" otherwise.
    const cmds: string[] = [];
    let down = false;
    for (const p of expected) {
      if (p === null) down = false;
      else {
        cmds.push(down ? "L" : "M");
        down = true;
      }
    }
    expect(segments.map((s) => s.cmd)).toEqual(cmds);
    expect(plot.last).toEqual(drawn[drawn.length - 1]);
    const finite = values.filter(Number.isFinite);
    expect(plot.min).toBe(Math.min(...finite));
    expect(plot.max).toBe(Math.max(...finite));
    for (const s of segments) {
      expect(s.x).toBeGreaterThanOrEqual(box.padding);
      expect(s.x).toBeLessThanOrEqual(box.width - box.padding);
      expect(s.y).toBeGreaterThanOrEqual(box.padding);
      expect(s.y).toBeLessThanOrEqual(box.height - box.padding);
    }
  });

  it.each([[[]], [[NaN]], [[NaN, Infinity]]])("nothing to draw in %j", (values) => {
    const plot = linePlot(values, box);
    expect(plot.path).toBe("");
    expect(plot.last).toBeNull();
  });
});

describe("value-format", () => {
  const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 2 });
  it.each([
    { value: 0, unit: "NOMINAL", text: "0" },
    { value: 1234.56789, unit: "NOMINAL", text: "1,234.5679" },
    { value: 9999.5, unit: null, text: "9,999.5" },
    { value: 10_000, unit: "NOMINAL", text: compact.format(10_000) },
    { value: 2_500_000_000, unit: "CURRENCY", text: `$${compact.format(2_500_000_000)}` },
    { value: 12.5, unit: "currency", text: "$12.5" },
    { value: -12.5, unit: "CURRENCY", text: "-$12.5" },
    { value: -1_234_567, unit: "CURRENCY", text: `-$${compact.format(1_234_567)}` },
    { value: -3, unit: "NOMINAL", text: "-3" },
    { value: NaN, unit: "CURRENCY", text: "–" },
    { value: Infinity, unit: null, text: "–" },
  ])("formatValue($value, $unit) = $text", ({ value, unit, text }) => {
    expect(formatValue(value, unit)).toBe(text);
  });

  it.each([
    [1234567.891234, "1,234,567.8912"],
    [0.00001, "0"],
    [-42, "-42"],
    [NaN, "–"],
  ])("formatExact(%p) = %s", (value, text) => {
    expect(formatExact(value)).toBe(text);
  });

  it.each([
    [50, "+50%"],
    [-25, "-25%"],
    [0, "0%"],
    [12.345, "+12.3%"],
    [null, "–"],
  ])("formatPercent(%p) = %s", (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });

  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.0 KB"],
    [1536, "1.5 KB"],
    [1024 * 1024 - 1, "1024.0 KB"],
    [1024 * 1024, "1.0 MB"],
    [5.25 * 1024 * 1024, "5.3 MB"],
  ])("formatBytes(%p) = %s", (value, text) => {
    expect(formatBytes(value)).toBe(text);
  });
});

describe("insight-filter", () => {
  it.each([
    ["streak_weekly", "weekly"],
    ["streak_monthly", "monthly"],
    ["streak_quarterly", "quarterly"],
    ["decline_streak_weekly", "weekly"],
    ["DECLINE_STREAK_QUARTERLY", "quarterly"],
    [" streak_monthly ", "monthly"],
    ["streak_daily", null],
    ["weekly", null],
    ["", null],
  ])("insightCadence(%j) = %j", (flag, cadence) => {
    expect(insightCadence(flag)).toBe(cadence);
  });

  it.each([
    [1, "weekly", "1 week"],
    [6, "weekly", "6 weeks"],
    [1, "monthly", "1 month"],
    [3, "quarterly", "3 quarters"],
    [1, null, "1 period"],
    [0, null, "0 periods"],
  ] as const)("durationText(%p, %p) = %s", (n, cadence, text) => {
    expect(durationText(n, cadence)).toBe(text);
  });

  it.each([
    [100, 150],
    [200, 150],
    [-40, -60],
    [-40, 20],
    [3, 3],
    [1e-6, 2e-6],
  ])("changePercent(%p, %p) is the change relative to |start|", (start, end) => {
    expect(changePercent(start, end)).toBeCloseTo(((end - start) / Math.abs(start)) * 100, 10);
    // A rise is positive whatever the sign of the start.
    expect(Math.sign(changePercent(start, end) ?? NaN)).toBe(Math.sign(end - start));
  });

  it.each([
    [0, 5],
    [NaN, 5],
    [5, NaN],
    [Infinity, 5],
  ])("changePercent(%p, %p) = null", (start, end) => {
    expect(changePercent(start, end)).toBeNull();
  });

  const base = {
    DOMAIN: "crypto",
    UNIT: "CURRENCY",
    METRIC_TYPE: "level",
    DURATION: 4,
    DATE_RANGE: "",
    START_VALUE: 1,
    END_VALUE: 2,
    PERIOD_START_DATE: "",
    PERIOD_END_DATE: "",
    FISCAL_YEAR_END: null,
    FISCAL_PERIOD_END: null,
    LATEST_REPORT_DATE: null,
    SPARKLINE: [],
  };
  const cards: InsightCard[] = [
    { ...base, ENTITY_ID: "eth", METRIC_NAME: "PRICE", FLAG: "streak_weekly" },
    { ...base, ENTITY_ID: "eq-aapl", METRIC_NAME: "NET_INCOME", FLAG: "streak_quarterly" },
    { ...base, ENTITY_ID: "btc", METRIC_NAME: "MARKET_CAP", FLAG: "decline_streak_monthly" },
    { ...base, ENTITY_ID: "Éthique", METRIC_NAME: "TVL", FLAG: "streak_weekly" },
    { ...base, ENTITY_ID: "odd", METRIC_NAME: "PRICE", FLAG: "streak_hourly" },
  ];
  it.each([
    { cadence: "all", search: "", expected: ["eth", "eq-aapl", "btc", "Éthique", "odd"] },
    { cadence: "weekly", search: "", expected: ["eth", "Éthique"] },
    { cadence: "monthly", search: "", expected: ["btc"] },
    { cadence: "quarterly", search: "", expected: ["eq-aapl"] },
    { cadence: "all", search: "net income", expected: ["eq-aapl"] },
    { cadence: "all", search: "NET_INCOME", expected: ["eq-aapl"] },
    { cadence: "all", search: "eth", expected: ["eth", "Éthique"] },
    { cadence: "all", search: "price", expected: ["eth", "odd"] },
    { cadence: "weekly", search: "price", expected: ["eth"] },
    { cadence: "all", search: "cap btc", expected: ["btc"] },
    { cadence: "quarterly", search: "eth", expected: [] },
  ] as { cadence: CadenceFilter; search: string; expected: string[] }[])(
    "cadence $cadence, search “$search” → $expected",
    ({ cadence, search, expected }) => {
      expect(filterInsights(cards, { cadence, search }).map((c) => c.ENTITY_ID)).toEqual(expected);
    },
  );

  it("readableCard turns oddly typed fields into text and numbers", () => {
    const odd = {
      ...base,
      ENTITY_ID: null,
      METRIC_NAME: 42,
      FLAG: { toString: () => "boom" },
      DURATION: "6",
      START_VALUE: " ",
      END_VALUE: "12.5",
      SPARKLINE: [
        { date: "2024-01-01", value: 1 },
        { date: 5, value: 2 },
        { date: "2024-01-03", value: "3" },
        null,
        { date: "2024-01-04", value: 4 },
      ],
    } as unknown as InsightCard;
    const card = readableCard(odd);
    expect(card.ENTITY_ID).toBe("");
    expect(card.METRIC_NAME).toBe("42");
    expect(card.FLAG).toBe("{}");
    expect(card.DURATION).toBe(6);
    expect(card.START_VALUE).toBeNaN();
    expect(card.END_VALUE).toBe(12.5);
    expect(card.SPARKLINE).toEqual([
      { date: "2024-01-01", value: 1 },
      { date: "2024-01-04", value: 4 },
    ]);
    expect(() => filterInsights([card], { cadence: "weekly", search: "x" })).not.toThrow();
  });
});

describe("formatWithNumberFormat: a number under the formats the functions give their cells", () => {
  it.each<[number, string, string | null]>([
    [1234.5, "$#,##0.00", "$1,234.50"],
    [-1234.5, "$#,##0.00", "-$1,234.50"],
    [0.000312, "$0.00####", "$0.000312"],
    [0.5, "$0.00####", "$0.50"],
    [1234.5, "€#,##0.00", "€1,234.50"],
    [1234.5, '#,##0.00 "CHF"', "1,234.50 CHF"],
    [0.2534, "0.00%", "25.34%"],
    [-0.05, "0.00%", "-5.00%"],
    [3.2, '0.00"%"', "3.20%"],
    [25.314, '0.00"x"', "25.31x"],
    [1234567.4, "#,##0", "1,234,567"],
    [104.271, "0.00", "104.27"],
    [45000, "yyyy-mm-dd", null],
    [NaN, "$#,##0.00", null],
  ])("%p under %s is %p", (value, format, text) => {
    expect(formatWithNumberFormat(value, format)).toBe(text);
  });
});

describe("the preview's table size: rows of data, the header row named apart", () => {
  it.each<[unknown[][], number, string]>([
    [
      [
        ["Date", "eth PRICE"],
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      6,
      "3 rows (and a header row) × 2 columns",
    ],
    [
      [
        ["Date", "eth PRICE"],
        [1, 2],
      ],
      6,
      "1 row (and a header row) × 2 columns",
    ],
    [
      Array.from({ length: 9 }, (_, i) => (i === 0 ? ["Date", "x"] : [i, i])),
      6,
      "8 rows (and a header row) × 2 columns; the first 5 shown",
    ],
    [
      [
        ["eth", 1],
        ["sol", 2],
      ],
      6,
      "2 rows × 2 columns",
    ],
    [[[1]], 6, "1 row × 1 column"],
  ])("%j", (rows, shown, text) => {
    const columns = Math.max(...rows.map((r) => r.length));
    expect(tableSizeText(rows as never, columns, Math.min(shown, rows.length))).toBe(text);
  });

  it("a text-only first row above data is a header; a single text row is not", () => {
    expect(
      hasHeaderRow([
        ["Symbol", "PRICE"],
        ["eth", 1],
      ]),
    ).toBe(true);
    expect(hasHeaderRow([["only"]])).toBe(false);
    expect(hasHeaderRow([["eth", 1]])).toBe(false);
  });
});

describe("search ranking: whole words, then a word's start, then inside a word", () => {
  it.each<[string, (string | null)[], number | null]>([
    ["eth", ["eth"], 0],
    ["eth", ["Ethereum"], 1],
    ["eth", ["Tether USD"], 2],
    ["eth", ["tether", "Ethereum"], 1],
    ["income", ["NET_INCOME"], 0],
    ["inc", ["NET_INCOME"], 1],
    ["2", ["Layer 2"], 0],
    ["btc", ["Ethereum", null], null],
  ])("%s in %j: %p", (word, texts, rank) => {
    expect(wordMatchRank(word, texts)).toBe(rank);
  });

  it("a record's rank sums its words'; a missing word leaves it out; no words rank 0", () => {
    expect(searchRank(["eth", "fees"], ["ethereum", "FEES"])).toBe(1);
    expect(searchRank(["eth", "tvl"], ["ethereum", "FEES"])).toBeNull();
    expect(searchRank([], ["anything"])).toBe(0);
  });
});
