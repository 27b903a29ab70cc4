/**
 * The sandbox world: `useSandbox(options)` starts the in-process sandbox on an
 * ephemeral port before a suite (or describe block) and closes it after, and
 * small fetch helpers return status, headers and parsed body. The sandbox's
 * own suites (test/sandbox/) start it with SANDBOX_SUITE: their fixed day and
 * a short first insight call.
 */
import { DEMO_API_KEY, type SandboxHandle, type SandboxOptions, startSandbox } from "../../sandbox/server";
import { useWorld } from "./use-world";

/**
 * The sandbox suites' "today", not the tests' TEST_TODAY (test/support/today.ts):
 * their golden values were worked out on this day (a Sunday, the last day of a
 * quarter and of Apple's fiscal quarter), so it stays.
 */
export const TODAY = "2024-06-30";
export { DEMO_API_KEY };

/** The sandbox suites' options: their day, a short first insight call, no log. */
export const SANDBOX_SUITE: SandboxOptions = { today: TODAY, insightFirstCallDelayMs: 10, quiet: true };

/**
 * A sandbox for the suite or describe block this is called in: started in a
 * beforeAll (in the order of the block's other hooks), closed in an afterAll.
 * The handle it returns reads the running sandbox once started.
 */
export function useSandbox(options: SandboxOptions = {}): SandboxHandle {
  return useWorld("the sandbox (useSandbox)", () => startSandbox(options));
}

/** How many series requests (`/data/api/…`) a sandbox has answered since its last reset. */
export function seriesRequestCount(sandbox: Pick<SandboxHandle, "requestLog">): number {
  return sandbox.requestLog().filter((entry) => entry.path.startsWith("/data/api/")).length;
}

/** A sandbox a test starts and closes itself, with the sandbox suites' options. */
export function startTestSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ ...SANDBOX_SUITE, ...options });
}

export interface JsonReply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** GET `path` with `params` (the demo key added unless `APIKey` is given or set to null). */
export async function getJson<T = unknown>(
  sandbox: SandboxHandle,
  path: string,
  params: Record<string, string | null> = {},
): Promise<JsonReply<T>> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ APIKey: DEMO_API_KEY, ...params }))
    if (value !== null) query.set(name, value);
  const response = await fetch(`${sandbox.url}${path}?${query}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

export interface Point {
  date: string;
  val: number;
}
export type SeriesBody = { data: { symbols: Record<string, Record<string, Point[] | string>> } };

/** One series of a `/data/api/` answer, failing the test when it is a message instead. */
export async function series(
  sandbox: SandboxHandle,
  symbol: string,
  metric: string,
  params: Record<string, string> = {},
): Promise<Point[]> {
  const reply = await getJson<SeriesBody>(sandbox, `/data/api/${metric}/`, { symbols: symbol, ...params });
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${JSON.stringify(reply.body)}`);
  const answer = reply.body.data.symbols[symbol][metric];
  if (!Array.isArray(answer)) throw new Error(`${symbol} ${metric} answered a message: ${answer}`);
  return answer;
}

/** Independent calendar helpers on ISO strings, built on Date only. */
export function utc(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

export function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const date = utc(isoDate);
  date.setUTCDate(date.getUTCDate() + days);
  return iso(date);
}

/** Period label the interface's aggregation should use for a day: the first day of its week (Monday), month, quarter or year. */
export function periodLabel(isoDate: string, granularity: string): string {
  const date = utc(isoDate);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  switch (granularity) {
    case "DAY":
      return isoDate;
    case "WEEK":
      return addDays(isoDate, -((date.getUTCDay() + 6) % 7));
    case "MONTH":
      return iso(new Date(Date.UTC(y, m, 1)));
    case "QUARTER":
      return iso(new Date(Date.UTC(y, m - (m % 3), 1)));
    case "YEAR":
      return `${y}-01-01`;
    default:
      throw new Error(`unknown granularity ${granularity}`);
  }
}

/** Rolls DAY points up by hand, for comparison with the sandbox's own aggregation. */
export function rollUp(points: readonly Point[], granularity: string, type: "SUM" | "LAST" | "AVERAGE"): Point[] {
  const groups = new Map<string, number[]>();
  for (const point of points) {
    const label = periodLabel(point.date, granularity);
    const values = groups.get(label) ?? [];
    values.push(point.val);
    groups.set(label, values);
  }
  return [...groups].map(([date, values]) => {
    const sum = values.reduce((a, b) => a + b, 0);
    return { date, val: type === "SUM" ? sum : type === "AVERAGE" ? sum / values.length : values[values.length - 1] };
  });
}

export function isWeekday(isoDate: string): boolean {
  const day = utc(isoDate).getUTCDay();
  return day !== 0 && day !== 6;
}

/**
 * Compares two series in one assertion (jest's expect is slow per call):
 * same dates, and values equal within a relative tolerance that only
 * floating-point summation order can explain.
 */
export function expectSameSeries(actual: readonly Point[], expected: readonly Point[], relative = 1e-9): void {
  expect(actual.map((p) => p.date)).toEqual(expected.map((p) => p.date));
  const off = actual.filter(
    (p, i) => Math.abs(p.val - expected[i].val) > relative * Math.max(1, Math.abs(expected[i].val)),
  );
  expect(off).toEqual([]);
}
