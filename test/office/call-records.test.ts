/**
 * The per-call records (src/office/call-records.ts): one record per normalized
 * call, its state from pending to done or failed, the windows it asked, and
 * forCall joining it with the client's answer log; bounded, counted in O(1),
 * heard by subscribers.
 */
import { AnswerLog } from "../../src/api/answer-log";
import { argumentText, callKey, CallRecords, type CallRecord } from "../../src/office/call-records";

function recordsOf(
  log = new AnswerLog(),
  max?: number,
): { records: CallRecords; log: AnswerLog; clock: { t: number } } {
  const clock = { t: 1000 };
  return {
    records: new CallRecords(
      () => log,
      () => clock.t,
      max,
    ),
    log,
    clock,
  };
}

describe("call records", () => {
  it("keys a call by its function and its arguments as read (a data type's plain value, omitted ones empty)", () => {
    expect(callKey("latest", ["btc", "PRICE", null, null])).toBe('MD.LATEST("btc","PRICE",,)');
    const chained = { type: "Double", basicValue: 45000, properties: { Date: { type: "String", basicValue: "x" } } };
    expect(callKey("LATEST", ["btc", "PRICE", chained])).toBe('MD.LATEST("btc","PRICE",45000)');
    expect(argumentText([["eth", "btc"]])).toBe('{"eth","btc"}');
    expect(argumentText([[7]])).toBe("7");
  });

  it("moves a call from pending to done or failed, counted, and tells subscribers", () => {
    const { records, clock } = recordsOf();
    const heard: string[] = [];
    const stop = records.subscribe((record: CallRecord) => heard.push(`${record.key} ${record.state}`));
    const a = records.begin("LATEST", ["btc", "PRICE", null, null]);
    const b = records.begin("LATEST", ["eth", "PRICE", null, null]);
    expect(records.summary()).toMatchObject({ total: 2, pending: 2, done: 0, failed: 0 });
    clock.t = 2000;
    a.settle();
    b.settle(new Error("No data"));
    expect(records.summary()).toEqual({ total: 2, pending: 0, done: 1, failed: 1, lastSettledAt: 2000 });
    expect(records.forCall(b.key)).toMatchObject({
      state: "failed",
      error: "No data",
      startedAt: 1000,
      settledAt: 2000,
    });
    stop();
    records.begin("LATEST", ["btc", "PRICE", null, null]);
    expect(heard).toEqual([
      'MD.LATEST("btc","PRICE",,) pending',
      'MD.LATEST("eth","PRICE",,) pending',
      'MD.LATEST("btc","PRICE",,) done',
      'MD.LATEST("eth","PRICE",,) failed',
    ]);
    // Started again: pending again, once.
    expect(records.summary()).toMatchObject({ total: 2, pending: 1, failed: 1, done: 0 });
  });

  it("an earlier run of a call that settles after a later one began changes nothing", () => {
    const { records } = recordsOf();
    const first = records.begin("LATEST", ["btc", "PRICE", null, null]);
    records.begin("LATEST", ["btc", "PRICE", null, null]);
    first.settle();
    expect(records.summary()).toMatchObject({ pending: 1, done: 0 });
  });

  it("joins a call with the answers of its pairs over its windows and their corrections", () => {
    const { records, log } = recordsOf();
    const call = records.begin("LATEST", ["btc", "PRICE", null, null]);
    call.asked({ symbol: "btc", metric: "PRICE", start: "2026-10-01", end: "2026-10-31" });
    call.asked({ symbol: "btc", metric: "PRICE", start: "2026-10-01", end: "2026-10-31" });
    log.note({ symbol: "btc", metric: "PRICE", source: "store", fetchedAt: 5, from: "2025-01-01", to: "2025-01-31" });
    log.note({ symbol: "btc", metric: "PRICE", source: "service", fetchedAt: 9, from: "2026-10-01", to: "2026-10-31" });
    log.note({ symbol: "eth", metric: "PRICE", source: "service", fetchedAt: 9, from: "2026-10-01", to: "2026-10-31" });
    const revision = { date: "2026-10-05", was: 1, now: 2, wasFetchedAt: 1, at: 9 };
    log.kept("btc", "PRICE", { fetchedAt: 9, settledThrough: "2026-10-29", start: "2026-10-01", end: "2026-10-31" }, [
      revision,
    ]);
    call.settle();
    const trace = records.forCall(call.key)!;
    expect(trace.asked).toHaveLength(1);
    expect(trace.answers.map((a) => [a.source, a.from])).toEqual([["service", "2026-10-01"]]);
    expect(trace.answers[0]!.settledThrough).toBe("2026-10-29");
    expect(trace.revisions).toEqual([revision]);
    expect(records.forCall('MD.LATEST("sol","PRICE",,)')).toBeUndefined();
  });

  it("read by nobody while twice the bound start, keeps the most recent runs and forgets the rest", () => {
    const { records } = recordsOf(new AnswerLog(), 3);
    const first = records.begin("LATEST", ["a", "PRICE"]);
    for (const symbol of ["b", "c", "a", "b", "d"]) records.begin("LATEST", [symbol, "PRICE"]);
    // A forgotten run's end changes nothing.
    first.settle();
    expect(records.all().map((r) => r.args[0])).toEqual(['"a"', '"b"', '"d"']);
    expect(records.summary()).toMatchObject({ total: 3, pending: 3, done: 0 });
  });

  it("keeps the most recent calls only", () => {
    const { records } = recordsOf(new AnswerLog(), 3);
    for (const symbol of ["a", "b", "c", "d"]) records.begin("LATEST", [symbol, "PRICE"]);
    expect(records.all().map((r) => r.args[0])).toEqual(['"b"', '"c"', '"d"']);
    expect(records.summary()).toMatchObject({ total: 3, pending: 3 });
  });
});
