/**
 * MD.SERIES transforms through the built bundle, each checked against values
 * computed here from the sandbox's raw daily readings (months rolled up here,
 * not by the add-in or the sandbox): the window's first row holds a value,
 * because the history before it is fetched and cut away.
 */
import { rawPoints, type RawPoint, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const world = useBundle({ quiet: true });
const { sandbox, bundle } = world;

const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };

/** One value per row date, as a plain map. */
type Column = Map<string, number>;

async function daily(symbol: string, metric: string, from: string, to: string): Promise<RawPoint[]> {
  return rawPoints(sandbox, symbol, metric, { startDate: from, endDate: to });
}

/** Calendar months (dated on the 1st): the last reading (a level) or the sum (a flow). */
function monthly(points: RawPoint[], how: "last" | "sum"): RawPoint[] {
  const months = new Map<string, number>();
  for (const p of points) {
    const key = `${p.date.slice(0, 7)}-01`;
    months.set(key, how === "last" ? p.val : (months.get(key) ?? 0) + p.val);
  }
  return [...months].map(([date, val]) => ({ date, val }));
}

function yearEarlier(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const day = m === 2 && d === 29 ? 28 : d;
  return `${y - 1}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Independent expectations for the rows dated `from` on, from a series with its history. */
function expected(points: RawPoint[], from: string, transform: string, rolling?: [number, "avg" | "sum"]): Column {
  const out: Column = new Map();
  const first = points.findIndex((p) => p.date >= from);
  let changed: { date: string; val: number }[] = points.map((p, i) => {
    const prev = points[i - 1]?.val;
    switch (transform) {
      case "pct":
        return { date: p.date, val: p.val / prev - 1 };
      case "diff":
        return { date: p.date, val: p.val - prev };
      case "rebase":
        return { date: p.date, val: (p.val / points[first].val) * 100 };
      case "cumsum":
        return { date: p.date, val: points.slice(first, i + 1).reduce((s, q) => s + q.val, 0) };
      case "yoy": {
        const target = yearEarlier(p.date);
        const earlier = [...points].reverse().find((q) => q.date <= target);
        return { date: p.date, val: earlier ? p.val / earlier.val - 1 : NaN };
      }
      default:
        return { date: p.date, val: p.val };
    }
  });
  if (rolling) {
    const [n, stat] = rolling;
    changed = changed.map((p, i) => {
      const window = changed.slice(i - n + 1, i + 1).map((q) => q.val);
      const sum = window.reduce((s, v) => s + v, 0);
      return { date: p.date, val: stat === "avg" ? sum / n : sum };
    });
  }
  for (const p of changed) if (p.date >= from) out.set(p.date, p.val);
  return out;
}

function column(table: unknown[][], c: number): Column {
  return new Map(table.slice(1).map((row) => [serialToIso(row[0] as number), row[c] as number]));
}

function serialToIso(value: number): string {
  return new Date(Date.UTC(1899, 11, 30) + value * 86_400_000).toISOString().slice(0, 10);
}

function expectClose(actual: Column, wanted: Column): void {
  expect([...actual.keys()]).toEqual([...wanted.keys()]);
  for (const [date, val] of wanted) {
    const got = actual.get(date) as number;
    expect(typeof got).toBe("number");
    expect(Math.abs(got - val)).toBeLessThanOrEqual(Math.abs(val) * 1e-9 + 1e-9);
  }
}

describe("transforms at DAY", () => {
  const START = "2024-03-01";
  const END = "2024-03-20";

  it.each<[string, string, [number, "avg" | "sum"] | undefined, string]>([
    ["transform=pct", "pct", undefined, "pct %"],
    ["transform=diff", "diff", undefined, "diff"],
    ["transform=rebase", "rebase", undefined, "rebased to 100"],
    ["transform=cumsum", "cumsum", undefined, "cumsum"],
    ["transform=yoy", "yoy", undefined, "yoy %"],
    ["rolling=7", "none", [7, "avg"], "rolling 7 avg"],
    ["rolling=7; rolling_stat=sum", "none", [7, "sum"], "rolling 7 sum"],
    ["transform=pct; rolling=5", "pct", [5, "avg"], "pct %, rolling 5 avg"],
  ])("%s, first row included", async (options, transform, rolling, note) => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE,FEES", START, END, "DAY", options])) as unknown[][];
    expect(table[0]).toEqual(["Date", `eth PRICE (${note})`, `eth FEES (${note})`]);
    expect(table[1][0]).toBe(serial(START));
    const history = "2023-02-01";
    const [price, fees] = await Promise.all([daily("eth", "PRICE", history, END), daily("eth", "FEES", history, END)]);
    expectClose(column(table, 1), expected(price, START, transform, rolling));
    expectClose(column(table, 2), expected(fees, START, transform, rolling));
  });
});

describe("transforms at MONTH", () => {
  const START = "2024-03-01";
  const END = "2024-06-30";

  it.each<[string, string, [number, "avg" | "sum"] | undefined]>([
    ["transform=pct", "pct", undefined],
    ["transform=diff", "diff", undefined],
    ["transform=rebase", "rebase", undefined],
    ["transform=cumsum", "cumsum", undefined],
    ["transform=yoy", "yoy", undefined],
    ["rolling=3; rolling_stat=sum", "none", [3, "sum"]],
  ])("%s, on the months, first row included", async (options, transform, rolling) => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE,FEES", START, END, "MONTH", options])) as unknown[][];
    expect(table[0][0]).toBe("Date");
    expect(table.slice(1).map((row) => row[0])).toEqual(
      ["2024-03-01", "2024-04-01", "2024-05-01", "2024-06-01"].map(serial),
    );
    const [price, fees] = await Promise.all([
      daily("eth", "PRICE", "2023-01-01", END),
      daily("eth", "FEES", "2023-01-01", END),
    ]);
    expectClose(column(table, 1), expected(monthly(price, "last"), START, transform, rolling));
    expectClose(column(table, 2), expected(monthly(fees, "sum"), START, transform, rolling));
  });

  it("a window starting mid-month reads its first month whole (the history the change needs)", async () => {
    const table = (await bundle.call("SERIES", [
      "eth",
      "FEES",
      "2024-03-15",
      END,
      "MONTH",
      "transform=pct",
    ])) as unknown[][];
    expect(table[0][0]).toBe("Date");
    const fees = monthly(await daily("eth", "FEES", "2024-01-01", END), "sum");
    expectClose(column(table, 1), expected(fees, "2024-03-01", "pct"));
  });
});

describe("transforms with the table's other options", () => {
  it("days=weekdays comes first: Monday's change is on Friday", async () => {
    const table = (await bundle.call("SERIES", [
      "eth",
      "PRICE",
      "2024-03-04",
      "2024-03-08",
      "DAY",
      "days=weekdays; transform=pct",
    ])) as unknown[][];
    const price = await daily("eth", "PRICE", "2024-02-26", "2024-03-08");
    const weekdays = price.filter((p) => ![0, 6].includes(new Date(`${p.date}T00:00:00Z`).getUTCDay()));
    expectClose(column(table, 1), expected(weekdays, "2024-03-04", "pct"));
  });

  it("fill=prev comes before: a day an equity lacks carries its value, so its change is 0", async () => {
    const table = (await bundle.call("SERIES", [
      "eth, eq-coin",
      "PRICE",
      "2024-03-04",
      "2024-03-11",
      "DAY",
      "fill=prev; transform=pct",
    ])) as unknown[][];
    const saturday = table.find((row) => row[0] === serial("2024-03-09"))!;
    const sunday = table.find((row) => row[0] === serial("2024-03-10"))!;
    expect([saturday[2], sunday[2]]).toEqual([0, 0]);
    const coin = await daily("eq-coin", "PRICE", "2024-02-26", "2024-03-11");
    const monday = table.find((row) => row[0] === serial("2024-03-11"))!;
    expect(monday[2]).toBeCloseTo(coin[coin.length - 1].val / coin[coin.length - 2].val - 1, 12);
  });

  it("rolling_stat without rolling is refused, naming it", async () => {
    const error = await bundle
      .call("SERIES", ["eth", "PRICE", "2024-03-01", "2024-03-05", "DAY", "rolling_stat=sum"])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "#VALUE!", message: expect.stringContaining("rolling=N") });
  });

  it("percentages arrive formatted as percentages, a rebased index as an index", async () => {
    const formatted = world.load({ requirements: EXCEL_1_19 });
    const yoy = (await formatted.call("SERIES", [
      "eth",
      "PRICE",
      "2024-03-01",
      "2024-03-02",
      "DAY",
      "transform=yoy",
    ])) as {
      numberFormat?: string;
    }[][];
    expect(yoy[0][1]).toBe("eth PRICE (yoy %)");
    expect(yoy[1][1].numberFormat).toBe("0.00%");
    const rebased = (await formatted.call("SERIES", [
      "eth",
      "PRICE",
      "2024-03-01",
      "2024-03-02",
      "DAY",
      "transform=rebase",
    ])) as {
      numberFormat?: string;
    }[][];
    expect(rebased[1][1]).toMatchObject({ basicValue: 100, numberFormat: "0.00" });
    const diff = (await formatted.call("SERIES", [
      "eth",
      "PRICE",
      "2024-03-01",
      "2024-03-02",
      "DAY",
      "transform=diff",
    ])) as {
      numberFormat?: string;
    }[][];
    expect(diff[1][1].numberFormat).toMatch(/^\$/);
  });
});
