/**
 * The team gateway without a key file (pass-through mode, a real nginx): each
 * analyst's own key goes to the service, answers are never shared between
 * keys (nothing is cached at all), and the keys stay out of the logs. Also the
 * per-client rate limit, whose 429 carries a Retry-After.
 */
import { randomUUID } from "node:crypto";
import { loadFunctionsBundle } from "../../harness/bundle";
import {
  accessLog,
  describeGateway,
  filesContaining,
  filesUnder,
  recordingFetch,
  type Fetched,
  useGatewayRig,
} from "../support/gateway";

const ANALYST_KEY = `md-analyst-${randomUUID()}`;
const OTHER_KEY = `md-other-${randomUUID()}`;

type Series = { data: { symbols: Record<string, Record<string, { date: string; val: number }[]>> } };

describeGateway("gateway, pass-through key mode (nginx + sandbox + built bundle)", () => {
  const rig = useGatewayRig({ firm: false, key: ANALYST_KEY, gateway: { rate: 2, burst: 5 } });

  it("says so, and the analyst's own key reaches the service: values exact", async () => {
    expect(await (await fetch(`${rig.gateway.url}/api/_gateway`)).json()).toEqual({ keyMode: "pass-through" });
    const seen: Fetched[] = [];
    const bundle = loadFunctionsBundle({
      origin: rig.gateway.url,
      fetch: recordingFetch(seen).fetch,
      storage: { "md.baseUrl": "/api", "md.apiKey": ANALYST_KEY },
    });
    const table = (await bundle.call("SERIES", ["eth", "PRICE", "2024-01-01", "2024-01-10"])) as unknown[][];
    const direct = await fetch(
      `${rig.sandbox.url}/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-10&APIKey=${ANALYST_KEY}`,
    );
    const raw = ((await direct.json()) as Series).data.symbols.eth.PRICE;
    expect(table.slice(1).map((row) => row[1])).toEqual(raw.map((p) => p.val));
    expect(seen.every((f) => f.url.startsWith(`${rig.gateway.url}/api/`))).toBe(true);
    expect(seen.some((f) => f.url.includes(`APIKey=${ANALYST_KEY}`))).toBe(true);
    // The add-in asked the gateway's key mode first, then the data, which no cache answered.
    expect(seen[0].url).toBe(`${rig.gateway.url}/api/_gateway`);
    const data = seen.filter((f) => f.url.includes("/api/data/api/"));
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((f) => /x-cache-status: BYPASS/i.test(f.headers))).toBe(true);
  });

  it("never shares an answer between keys: the same URL with another key is the service's own refusal", async () => {
    const url = `${rig.gateway.url}/api/data/api/FEES/?symbols=btc&startDate=2024-02-01&endDate=2024-02-05`;
    const before = rig.sandbox.stats().requests;
    const mine = await fetch(`${url}&APIKey=${ANALYST_KEY}`);
    const theirs = await fetch(`${url}&APIKey=${OTHER_KEY}`);
    const mineAgain = await fetch(`${url}&APIKey=${ANALYST_KEY}`);
    expect([mine.status, theirs.status, mineAgain.status]).toEqual([200, 401, 200]);
    // Every request went to the service: nothing answered from a cache.
    expect(rig.sandbox.stats().requests - before).toBe(3);
    // The service's words on a refused key are replaced by the gateway's (they might quote the key).
    expect(await theirs.json()).toEqual({
      message: "The market-data service refused the API key: check the key in the Market Data pane (HTTP 401).",
    });
  });

  it("keeps no cache and writes no analyst key to its logs or files", async () => {
    expect(filesUnder(rig.gateway.cacheDir)).toEqual([]);
    const log = accessLog(rig.gateway);
    expect(log.length).toBeGreaterThan(3);
    expect(log.filter((line) => line.includes(ANALYST_KEY) || line.includes(OTHER_KEY))).toEqual([]);
    // Where a key was sent the line says so, never which: every APIKey in the log is a redacted one.
    expect(log.some((line) => line.includes("APIKey=[redacted]"))).toBe(true);
    expect(log.flatMap((line) => line.match(/apikey[^&" ]*/gi) ?? []).filter((k) => k !== "APIKey=[redacted]")).toEqual(
      [],
    );
    expect(filesContaining([rig.gateway.stateDir, rig.gateway.confDir], ANALYST_KEY)).toEqual([]);
    expect(filesContaining([rig.gateway.stateDir, rig.gateway.confDir], OTHER_KEY)).toEqual([]);
  });

  it("limits each client's request rate (2/s, burst 5 here) with a 429 that says when to retry", async () => {
    await new Promise((r) => setTimeout(r, 3000)); // let the bucket drain from the tests above
    // Twenty at once (a cheap 404 from the sandbox): 1 + 5 pass at once, the bucket refills 2 per second.
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${rig.gateway.url}/api/insights/no-such-feed/?APIKey=${ANALYST_KEY}`)),
    );
    const statuses = responses.map((r) => r.status);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(6);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.map((r) => r.headers.get("retry-after"))).toEqual(limited.map(() => "1"));
    // Static files are not limited.
    expect((await fetch(`${rig.gateway.url}/functions.json`)).status).toBe(200);
  });
});
