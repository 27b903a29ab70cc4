/**
 * The pane's Trace over the runtime's records (src/office/cell-trace.ts): a
 * cell's formula joined with the recorded calls that answered it (the latest
 * run of each), the formula that reproduces each value, and the history a
 * recheck revised since a refresh started. Nothing here sends a request.
 */
import { AnswerLog } from "../../src/api/answer-log";
import { CallRecords } from "../../src/office/call-records";
import { traceOfRecords } from "../../src/office/cell-trace";

function world() {
  const log = new AnswerLog();
  const clock = { t: Date.UTC(2024, 4, 10, 12) };
  const records = new CallRecords(
    () => log,
    () => clock.t,
  );
  return { log, clock, records, trace: traceOfRecords(() => records) };
}

describe("the Trace of a cell's formula", () => {
  it("joins each MD call of the formula with its record and what answered it, and pins it to the reading's date", () => {
    const { log, records, trace } = world();
    const call = records.begin("LATEST", ["btc", "PRICE", null, null]);
    call.asked({ symbol: "btc", metric: "PRICE", start: "2024-05-01", end: "2024-05-10" });
    log.note({
      symbol: "btc",
      metric: "PRICE",
      source: "service",
      fetchedAt: 5,
      from: "2024-05-01",
      to: "2024-05-10",
      request: { address: "http://x/data/api/PRICE/?symbols=btc", at: 5, ms: 42 },
      dropped: { "outside the window": 2 },
    });
    call.facts({ symbol: "btc", metric: "PRICE", date: "2024-05-09", settled: true, source: "service", fetchedAt: 5 });
    call.settle();
    records.begin("LATEST", ["eth", "PRICE", null, null]).settle();

    const [traced, ...others] = trace.callsOf('=MD.LATEST("btc","PRICE")*2');
    expect(others).toEqual([]);
    expect(traced!.trace?.key).toBe('MD.LATEST("btc","PRICE",,)');
    expect(traced!.trace?.answers.map((a) => [a.request?.address, a.request?.ms, a.dropped])).toEqual([
      ["http://x/data/api/PRICE/?symbols=btc", 42, { "outside the window": 2 }],
    ]);
    expect(traced!.pinned).toBe('=MD.LATEST("btc","PRICE","2024-05-09")');
  });

  it("says a call has no record (not computed in this session) rather than guessing", () => {
    const { trace } = world();
    expect(trace.callsOf('=MD.AGG("sol","FEES","30D")')).toEqual([
      { call: { fn: "AGG", args: ['"sol"', '"FEES"', '"30D"'] }, trace: null, pinned: null },
    ]);
    expect(trace.callsOf("=SUM(A1:A2)")).toEqual([]);
  });

  it("lists the history a recheck revised since a refresh started, once per call and day", () => {
    const { log, clock, records, trace } = world();
    const since = clock.t;
    const call = records.begin("SERIES", ["eth", "PRICE", "-1Y", null, null, null]);
    call.asked({ symbol: "eth", metric: "PRICE", start: "2023-05-10", end: "2024-05-10" });
    log.note({
      symbol: "eth",
      metric: "PRICE",
      source: "service",
      fetchedAt: since + 1,
      from: "2023-05-10",
      to: "2024-05-10",
    });
    log.kept(
      "eth",
      "PRICE",
      { fetchedAt: since + 1, settledThrough: "2024-05-09", start: "2023-05-10", end: "2024-05-10" },
      [
        { date: "2024-01-02", was: 100, now: 110, wasFetchedAt: 1, at: since + 1 },
        { date: "2023-01-02", was: 1, now: 2, wasFetchedAt: 1, at: since - 10 },
      ],
    );
    clock.t += 5;
    call.settle();
    expect(trace.revisedSince(since)).toEqual([
      {
        call: 'MD.SERIES("eth","PRICE","-1Y",,,)',
        revision: { date: "2024-01-02", was: 100, now: 110, wasFetchedAt: 1, at: since + 1 },
      },
    ]);
    expect(trace.revisedSince(clock.t + 1)).toEqual([]);
  });
});
