/** Latency and fault switches, by option and through the handle, over real HTTP. */
import { request } from "node:http";
import { DEMO_API_KEY, startTestSandbox, useSandbox, SANDBOX_SUITE } from "../support/sandbox";

const sandbox = useSandbox(SANDBOX_SUITE);
afterEach(() => sandbox.reset());

const seriesUrl = () => `${sandbox.url}/data/api/PRICE/?symbols=eth&startDate=2024-06-01&APIKey=${DEMO_API_KEY}`;

describe("injected faults", () => {
  it("serverErrorRate 1 answers 500 or 503 with a JSON error body", async () => {
    sandbox.setFaults({ serverErrorRate: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const response = await fetch(seriesUrl());
      statuses.add(response.status);
      const body = (await response.json()) as { error: { status: number; message: string } };
      expect(body.error.status).toBe(response.status);
    }
    expect([...statuses].sort()).toEqual([500, 503]);
    expect(sandbox.stats().faultsInjected["server-error"]).toBe(12);
  });

  it.each([0, 1, 7])("rateLimitRate 1 answers 429 with Retry-After: %i", async (seconds) => {
    sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: seconds });
    const response = await fetch(seriesUrl());
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe(String(seconds));
    expect(((await response.json()) as { error: { status: number } }).error.status).toBe(429);
  });

  it("dropRate 1 destroys the connection without a response", async () => {
    sandbox.setFaults({ dropRate: 1 });
    await expect(fetch(seriesUrl())).rejects.toThrow();
    // A raw request sees the socket close with no status line at all.
    const outcome = await new Promise<string>((resolve) => {
      const req = request(seriesUrl(), (res) => resolve(`status ${res.statusCode}`));
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end();
    });
    expect(outcome).toBe("ECONNRESET");
    expect(sandbox.requestLog().map((entry) => entry.status)).toEqual(["dropped", "dropped"]);
  });

  it("badJsonRate 1 answers 200 with a body that does not parse", async () => {
    sandbox.setFaults({ badJsonRate: 1 });
    const response = await fetch(seriesUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await response.text();
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(text.startsWith('{"data":')).toBe(true);
  });

  it("the same seed and request order give the same fault sequence", async () => {
    const faults = { serverErrorRate: 0.3, rateLimitRate: 0.2, badJsonRate: 0.2 };
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const own = await startTestSandbox({ seed: 99, faults });
      try {
        const outcomes: string[] = [];
        for (let i = 0; i < 25; i++) {
          const response = await fetch(`${own.url}/asset/symbols/`);
          const text = await response.text();
          outcomes.push(`${response.status}:${text.length}`);
        }
        runs.push(outcomes);
      } finally {
        await own.close();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(new Set(runs[0].map((o) => o.split(":")[0])).size).toBeGreaterThan(1);
  });

  it("reset() restores the start-up faults and clears the counters", async () => {
    sandbox.setFaults({ serverErrorRate: 1 });
    expect((await fetch(seriesUrl())).status).toBeGreaterThanOrEqual(500);
    sandbox.reset();
    expect(sandbox.stats().requests).toBe(0);
    expect((await fetch(seriesUrl())).status).toBe(200);
  });

  it.each([
    [{ serverErrorRate: 1.5 }, "serverErrorRate"],
    [{ dropRate: -0.1 }, "dropRate"],
    [{ badJsonRate: Number.NaN }, "badJsonRate"],
    [{ retryAfterSeconds: 1.5 }, "retryAfterSeconds"],
  ])("setFaults(%j) throws a RangeError naming the field", (faults, field) => {
    expect(() => sandbox.setFaults(faults)).toThrow(RangeError);
    expect(() => sandbox.setFaults(faults)).toThrow(field);
  });
});

describe("latency", () => {
  it("setLatency delays every answer by at least that long", async () => {
    sandbox.setLatency(120);
    await (await fetch(seriesUrl())).arrayBuffer();
    expect(sandbox.requestLog()[0].ms).toBeGreaterThanOrEqual(119);
    expect(() => sandbox.setLatency(-1)).toThrow(RangeError);
  });

  it("latencyMs applies from the start", async () => {
    const slow = await startTestSandbox({ latencyMs: 80 });
    try {
      await (await fetch(`${slow.url}/asset/symbols/`)).arrayBuffer();
      expect(slow.requestLog()[0].ms).toBeGreaterThanOrEqual(79);
    } finally {
      await slow.close();
    }
  });
});
