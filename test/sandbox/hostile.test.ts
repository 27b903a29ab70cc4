/** The failure switches of a broken or hostile service, over real HTTP. */
import { listenLocal, type LocalServer } from "../support/local-server";
import { createServer, request } from "node:http";
import { DEMO_API_KEY, getJson, useSandbox, SANDBOX_SUITE } from "../support/sandbox";

const sandbox = useSandbox(SANDBOX_SUITE);
afterEach(() => sandbox.reset());

const window = { startDate: "2024-06-01", endDate: "2024-06-05" };

describe("failure switches", () => {
  it("a poisoned symbol fails its whole request with HTTP 500, alone or among others; requests without it are answered", async () => {
    sandbox.setHostile({ poisonSymbols: ["eq-bad"] });
    const batch = await getJson<{ error: { status: number } }>(sandbox, "/data/api/PRICE/", {
      symbols: "eth,EQ-BAD,btc",
      ...window,
    });
    expect(batch.status).toBe(500);
    expect(batch.body.error.status).toBe(500);
    expect((await getJson(sandbox, "/data/api/PRICE/", { symbols: "eq-bad", ...window })).status).toBe(500);
    expect((await getJson(sandbox, "/data/api/PRICE/", { symbols: "eth,btc", ...window })).status).toBe(200);
    expect((await getJson(sandbox, "/asset/symbols/")).status).toBe(200);
    expect(sandbox.stats().quirks.poison).toBe(2);
  });

  it("bigSeries: every series asked is N daily points from the start, valued 1, 2, 3…", async () => {
    sandbox.setHostile({ bigSeries: 1500 });
    type Series = { date: string; val: number }[];
    const answer = await getJson<{ data: { symbols: Record<string, Record<string, Series>> } }>(
      sandbox,
      "/data/api/PRICE,FEES/",
      { symbols: "eth,sol", ...window },
    );
    expect(answer.status).toBe(200);
    for (const symbol of ["eth", "sol"])
      for (const metric of ["PRICE", "FEES"]) {
        const series = answer.body.data.symbols[symbol]![metric]!;
        expect(series).toHaveLength(1500);
        expect(series[0]).toEqual({ date: "2024-06-01", val: 1 });
        expect(series[1499]).toEqual({ date: "2028-07-09", val: 1500 });
      }
    expect(sandbox.stats().quirks["big-series"]).toBe(1);
  });

  it("dataEverywhere: a point valued 1 for every day asked, however far back, at most 1,000", async () => {
    sandbox.setHostile({ dataEverywhere: true });
    type Body = { data: { symbols: Record<string, Record<string, { date: string; val: number }[]>> } };
    const old = await getJson<Body>(sandbox, "/data/api/PRICE/", {
      symbols: "eth",
      startDate: "1900-01-01",
      endDate: "1900-01-03",
    });
    expect(old.body.data.symbols.eth!.PRICE).toEqual(
      ["1900-01-01", "1900-01-02", "1900-01-03"].map((date) => ({ date, val: 1 })),
    );
    const long = await getJson<Body>(sandbox, "/data/api/PRICE/", {
      symbols: "eth",
      startDate: "1900-01-01",
      endDate: "1999-12-31",
    });
    expect(long.body.data.symbols.eth!.PRICE).toHaveLength(1000);
  });

  it("deepInsights: every card gets a DETAIL field nested N objects deep", async () => {
    sandbox.setHostile({ deepInsights: 3 });
    const feed = await getJson<{ rows: { DETAIL: unknown }[] }>(sandbox, "/insights/streaks/");
    expect(feed.body.rows.length).toBeGreaterThan(0);
    for (const row of feed.body.rows) expect(row.DETAIL).toEqual({ next: { next: { next: 1 } } });
  });

  it.each([
    [{ bigSeries: 0 }, "hostile.bigSeries must be a whole number from 1 to 5,000,000, got 0"],
    [{ deepInsights: 1.5 }, "hostile.deepInsights must be a whole number from 1 to 5,000,000, got 1.5"],
  ])("refuses %j", (hostile, message) => {
    expect(() => sandbox.setHostile(hostile)).toThrow(message);
  });

  it("a request line longer than maxUrlLength is refused with 414", async () => {
    sandbox.setHostile({ maxUrlLength: 120 });
    const short = await getJson(sandbox, "/data/api/PRICE/", { symbols: "eth", ...window });
    expect(short.status).toBe(200);
    const symbols = Array.from({ length: 20 }, (_, i) => `sbx${String(i + 1).padStart(5, "0")}`).join(",");
    const long = await getJson<{ error: { status: number; message: string } }>(sandbox, "/data/api/PRICE/", {
      symbols,
      ...window,
    });
    expect(long.status).toBe(414);
    expect(long.body.error.message).toMatch(/URI Too Long.*limit is 120/);
    expect(long.body.error.message).not.toContain(DEMO_API_KEY);
  });

  it("redirectTo answers 302 to the same path and query on the other origin", async () => {
    sandbox.setHostile({ redirectTo: "http://127.0.0.1:9/somewhere" });
    const response = await fetch(`${sandbox.url}/data/api/PRICE/?symbols=eth&APIKey=${DEMO_API_KEY}`, {
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `http://127.0.0.1:9/data/api/PRICE/?symbols=eth&APIKey=${DEMO_API_KEY}`,
    );
  });

  it("endlessBody sends headers and a start, then keeps the body open", async () => {
    sandbox.setHostile({ endlessBody: ["/data/api/"] });
    const received = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${sandbox.url}/data/api/PRICE/?symbols=eth&APIKey=${DEMO_API_KEY}`, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        setTimeout(() => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, text });
        }, 2500);
      });
      req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? undefined : reject(error)));
      req.end();
    });
    expect(received.status).toBe(200);
    expect(received.text.startsWith('{"data":{"symbols":{')).toBe(true);
    expect(received.text.length).toBeGreaterThan('{"data":{"symbols":{'.length); // a space a second
    expect(() => JSON.parse(received.text)).toThrow();
    // Other endpoints answer as usual.
    expect((await getJson(sandbox, "/asset/symbols/")).status).toBe(200);
  }, 10_000);

  it("echoKey quotes the key the request carried in every kind of text", async () => {
    sandbox.setHostile({ echoKey: true });
    const key = DEMO_API_KEY;
    const texts = await Promise.all([
      fetch(`${sandbox.url}/asset/symbols/?APIKey=${key}`).then((r) => r.text()),
      fetch(`${sandbox.url}/supported-metrics/?symbol=eth&APIKey=${key}`).then((r) => r.text()),
      fetch(`${sandbox.url}/insights/streaks/?APIKey=${key}`).then((r) => r.text()),
      fetch(`${sandbox.url}/flows/top/?sourceChains=ethereum&APIKey=${key}`).then((r) => r.text()),
      fetch(`${sandbox.url}/data/api/PRICE/?symbols=base&startDate=2024-06-01&endDate=2024-06-02&APIKey=${key}`).then(
        (r) => r.text(),
      ),
    ]);
    for (const text of texts) expect(text).toContain(key);
    const flows = JSON.parse(texts[3]) as Record<string, Record<string, number>>;
    expect(Object.keys(flows.netflow)).toContain(`bridge-of-${key}`);
  });

  it("longTitles gives the listed symbols' catalog titles 40,000 characters (more than an Excel cell holds); the rest are as before", async () => {
    const before = await getJson<{ assets: { symbol: string; title: string }[] }>(sandbox, "/asset/symbols/");
    sandbox.setHostile({ longTitles: ["ETH"] });
    const { body } = await getJson<{ assets: { symbol: string; title: string }[] }>(sandbox, "/asset/symbols/");
    const eth = body.assets.find((a) => a.symbol === "eth")!;
    const original = before.body.assets.find((a) => a.symbol === "eth")!.title;
    expect(eth.title).toHaveLength(40_000);
    expect(eth.title.startsWith(original)).toBe(true);
    expect(body.assets.filter((a) => a.symbol !== "eth")).toEqual(before.body.assets.filter((a) => a.symbol !== "eth"));
    expect(sandbox.stats().quirks["long-title"]).toBe(1);
  });

  it("trickyJson sends the listed symbols' values as hex text or dates with a time, and flows name __proto__ and constructor", async () => {
    sandbox.setHostile({ trickyJson: ["btc"] });
    const text = await fetch(
      `${sandbox.url}/data/api/PRICE,FEES/?symbols=eth,btc&startDate=2024-06-01&endDate=2024-06-02&APIKey=${DEMO_API_KEY}`,
    ).then((r) => r.text());
    const body = JSON.parse(text) as {
      data: { symbols: Record<string, Record<string, { date: string; val: unknown }[]>> };
    };
    expect(body.data.symbols.btc.PRICE.every((p) => typeof p.val === "string" && /^0x[0-9A-F]+$/.test(p.val))).toBe(
      true,
    );
    expect(body.data.symbols.btc.FEES.every((p) => p.date.endsWith("T00:00:00Z") && typeof p.val === "number")).toBe(
      true,
    );
    expect(body.data.symbols.eth.PRICE.every((p) => typeof p.val === "number" && p.date.length === 10)).toBe(true);
    const flows = await fetch(
      `${sandbox.url}/flows/top/?sourceChains=ethereum&flowType=netflow&APIKey=${DEMO_API_KEY}`,
    ).then((r) => r.text());
    expect(flows).toMatch(/^\{"netflow":\{"__proto__":5,"constructor":7,"ethereum":-?\d+\}\}$/);
  });

  it("outsideWindow, duplicateDates and badValues change only the listed symbols' series, as documented", async () => {
    const get = (symbols: string) =>
      fetch(
        `${sandbox.url}/data/api/PRICE/?symbols=${symbols}&startDate=2024-06-03&endDate=2024-06-13&APIKey=${DEMO_API_KEY}`,
      ).then((r) => r.text());
    const clean = JSON.parse(await get("eth,btc")) as {
      data: { symbols: Record<string, { PRICE: { date: string; val: number }[] }> };
    };
    const eth = clean.data.symbols.eth!.PRICE;
    expect(eth).toHaveLength(11); // crypto: every day
    sandbox.setHostile({ outsideWindow: ["eth"], duplicateDates: ["eth"] });
    const moved = JSON.parse(await get("eth,btc")) as typeof clean;
    const newest = eth[eth.length - 1]!;
    expect(moved.data.symbols.eth!.PRICE).toEqual([
      ...eth,
      { date: newest.date, val: newest.val + 1 },
      { date: "2099-01-01", val: 1 },
    ]);
    expect(moved.data.symbols.btc).toEqual(clean.data.symbols.btc);

    sandbox.setHostile({ outsideWindow: [], duplicateDates: [], badValues: ["eth"] });
    const text = await get("eth");
    expect(text).toContain('"val":1e999');
    const bad = (JSON.parse(text) as typeof clean).data.symbols.eth!.PRICE.map((p) => p.val as unknown);
    expect(bad).toEqual([
      eth[0]!.val,
      "NaN",
      eth[2]!.val,
      "Infinity",
      eth[4]!.val,
      Infinity,
      eth[6]!.val,
      "-Infinity",
      eth[8]!.val,
      "12.5",
      eth[10]!.val,
    ]);
  });

  it("hugeBodyBytes pads the answer to that size, streamed, still valid JSON", async () => {
    sandbox.setHostile({ hugeBodyBytes: 3_000_000 });
    const response = await fetch(
      `${sandbox.url}/data/api/PRICE/?symbols=eth&startDate=2024-06-01&endDate=2024-06-02&APIKey=${DEMO_API_KEY}`,
    );
    const text = await response.text();
    expect(Number(response.headers.get("content-length"))).toBe(3_000_000);
    expect(text.length).toBe(3_000_000);
    const body = JSON.parse(text) as { data: { symbols: { eth: { PRICE: unknown[] } } } };
    expect(body.data.symbols.eth.PRICE).toHaveLength(2);
  });

  it("invalid switches are refused with a RangeError naming the field", () => {
    expect(() => sandbox.setHostile({ maxUrlLength: 0 })).toThrow(/maxUrlLength/);
    expect(() => sandbox.setHostile({ redirectTo: "not a url" })).toThrow(/redirectTo/);
  });
});

describe("redirectTo against a real foreign origin", () => {
  let foreign: LocalServer;
  let hits = 0;
  beforeAll(async () => {
    foreign = await listenLocal(
      createServer((_req, res) => {
        hits++;
        res.end("{}");
      }),
    );
  });
  afterAll(() => foreign.close());

  it("a client that follows redirects lands on the foreign origin with the key", async () => {
    sandbox.setHostile({ redirectTo: foreign.url });
    const response = await fetch(`${sandbox.url}/data/api/PRICE/?symbols=eth&APIKey=${DEMO_API_KEY}`);
    expect(response.url).toBe(`${foreign.url}/data/api/PRICE/?symbols=eth&APIKey=${DEMO_API_KEY}`);
    expect(hits).toBe(1);
  });
});
