import { CancelledError } from "../../src/api/errors";
import { answerKey, cacheKey, PendingLoads, type Load } from "../../src/api/pending-loads";

function newLoad<T>(key: string, service?: string): Load<T> {
  return { key, state: "in-flight", waiters: new Set(), ...(service ? { service } : {}) };
}

describe("pending loads", () => {
  it("keys every kind of answer one way, and files it in the cache behind its base URL only", () => {
    expect(answerKey("series", "eth", "PRICE", "2025-01-01", "", "DAY")).toBe(
      '["series","eth","PRICE","2025-01-01","","DAY"]',
    );
    expect(answerKey("flows", [["flowType", "inflow"]])).toBe('["flows",[["flowType","inflow"]]]');
    expect(cacheKey("https://md.example.test", answerKey("assets"))).toBe('https://md.example.test ["assets"]');
  });

  it("hands every joined caller the one outcome, once, and forgets the load", async () => {
    const pending = new PendingLoads(() => undefined);
    const load = newLoad<number>(answerKey("assets"));
    pending.add(load);
    expect(pending.find(load.key)).toBe(load);
    const callers = [pending.join(load), pending.join(pending.find<number>(load.key)!)];
    expect(pending.size).toBe(1);
    pending.settle(load, { value: 42 });
    pending.settle(load, { error: new Error("too late") });
    expect(await Promise.all(callers)).toEqual([42, 42]);
    expect(pending.size).toBe(0);
    expect(pending.find(load.key)).toBeUndefined();
  });

  it("lets a caller that has read the settings join only a load from the same service", () => {
    const pending = new PendingLoads(() => undefined);
    const catalog = newLoad(answerKey("assets"), "https://a.example");
    const series = newLoad(answerKey("series", "eth", "PRICE", "", "", ""));
    pending.add(catalog);
    pending.add(series);
    expect(pending.find(catalog.key, "https://a.example")).toBe(catalog);
    expect(pending.find(catalog.key, "https://b.example")).toBeUndefined();
    expect(pending.find(catalog.key)).toBe(catalog);
    // A queued series part does not know its service yet: anyone may join it.
    expect(pending.find(series.key, "https://b.example")).toBe(series);
  });

  it("drops a cancelled caller alone, and aborts the request when the last caller of every load on it has gone", async () => {
    const logs: string[] = [];
    const pending = new PendingLoads((line) => logs.push(line));
    const a = newLoad<number>(answerKey("metrics", "eth"));
    const b = newLoad<number>(answerKey("metrics", "btc"));
    pending.add(a);
    pending.add(b);
    const signal = pending.fly([a as Load<unknown>, b as Load<unknown>]);
    const leaving = [new AbortController(), new AbortController(), new AbortController()];
    const first = pending.join(a, leaving[0]!.signal);
    const staying = pending.join(a, leaving[1]!.signal);
    const other = pending.join(b, leaving[2]!.signal);

    leaving[0]!.abort();
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    leaving[1]!.abort();
    await expect(staying).rejects.toBeInstanceOf(CancelledError);
    expect(signal.aborted).toBe(false); // b still has a caller
    leaving[2]!.abort();
    await expect(other).rejects.toBeInstanceOf(CancelledError);
    expect(signal.aborted).toBe(true);
    expect([a.state, b.state, pending.size]).toEqual(["settled", "settled", 0]);
    expect(logs).toEqual(["request abandoned by every caller: aborted"]);
  });

  it("settles a queued load nobody waits for any more as cancelled", async () => {
    const pending = new PendingLoads(() => undefined);
    const load: Load<number> = { ...newLoad<number>("q"), state: "queued" };
    pending.add(load);
    const controller = new AbortController();
    const caller = pending.join(load, controller.signal);
    controller.abort();
    await expect(caller).rejects.toBeInstanceOf(CancelledError);
    expect(load.state).toBe("settled");
    expect(pending.stillWanted(newLoad("another"))).toBe(false);
  });
});
