/**
 * The team gateway in firm mode (a real nginx, deploy/nginx/): the built
 * dist/functions.js, loaded as Excel's shared runtime served by the gateway
 * (base address /api, no key in the workbook runtime), against the sandbox,
 * which accepts only the firm's key. The gateway adds the key, caches answers
 * for everyone and collapses identical misses; the key never reaches a
 * response, a log line, or a file.
 */
import { readdirSync } from "node:fs";
import { DEMO_API_KEY } from "../../sandbox/server";
import { createClient } from "../../src/api/client";
import { GatewayProbe } from "../../src/office/sign-in/gateway";
import { SettingsStore, type KeyValueStorage } from "../../src/office/settings";
import { cellValue, DIST, isExcelError, loadFunctionsBundle, type LoadedBundle } from "../../harness/bundle";
import {
  accessEntries,
  accessLog,
  describeGateway,
  filesContaining,
  filesUnder,
  localToday,
  recordingFetch,
  sandboxRequests,
  useGatewayRig,
  type Fetched,
  type GatewayRig,
} from "../support/gateway";

let rig: GatewayRig;
const seen: Fetched[] = [];

/** One analyst's Excel: a fresh shared runtime loaded from the gateway, no key stored. */
function analyst(storage: Record<string, string> = {}): LoadedBundle {
  // One record for every runtime, so the key checks below cover every answer any runtime saw.
  const recorder = recordingFetch(seen);
  return loadFunctionsBundle({
    origin: rig.gateway.url,
    fetch: recorder.fetch,
    storage: { "md.baseUrl": "/api", ...storage },
  });
}

async function sandboxJson<T>(pathname: string, params: Record<string, string>): Promise<T> {
  const query = new URLSearchParams({ ...params, APIKey: rig.key });
  const response = await fetch(`${rig.sandbox.url}${pathname}?${query}`);
  if (!response.ok) throw new Error(`${pathname}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

type Series = { data: { symbols: Record<string, Record<string, { date: string; val: number }[]>> } };

function serial(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

describeGateway("gateway, firm key mode (nginx + sandbox + built bundle)", () => {
  // recent answers live 2 s here (5 min by default) so expiry and stale serving can be watched.
  rig = useGatewayRig({
    firm: true,
    sandbox: { insightFirstCallDelayMs: 1500 },
    gateway: { times: { recent: "2s" } },
  });
  it("says it holds the key; a runtime with no key asks for none and sends none", async () => {
    expect(await (await fetch(`${rig.gateway.url}/api/_gateway`)).json()).toEqual({ keyMode: "firm" });
    expect(await (await fetch(`${rig.gateway.url}/healthz`)).json()).toEqual({
      status: "ok",
      keyMode: "firm",
      firmKey: "accepted",
      checkedAt: rig.gateway.keyCheck.checkedAt,
    });
    const bundle = analyst();
    expect(bundle.storage.has("md.apiKey")).toBe(false);
    const value = await cellValue(bundle, "LATEST", ["eth", "PRICE", "2024-02-29"]);
    expect(isExcelError(value)).toBe(false);
    const sent = seen.map((f) => f.url);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((url) => url.startsWith(`${rig.gateway.url}/api/`))).toBe(true);
    // Not even the test build's sandbox demo key: the client sends no APIKey at all.
    expect(sent.filter((url) => /apikey/i.test(url))).toEqual([]);
  });

  it("a production build (no default key) on the gateway's page never reports a missing key", async () => {
    // runtime.ts's composition: the settings store asks the same-origin /api whether it is a gateway.
    const storage = new Map<string, string>([["md.baseUrl", "/api"]]);
    const kv: KeyValueStorage = {
      getItem: async (k) => storage.get(k) ?? null,
      setItem: async (k, v) => void storage.set(k, v),
      removeItem: async (k) => void storage.delete(k),
    };
    const g = globalThis as { location?: unknown };
    const before = g.location;
    g.location = new URL(`${rig.gateway.url}/taskpane.html`);
    try {
      const probe = new GatewayProbe();
      const firm = createClient({
        settings: () => new SettingsStore(kv, { apiKey: "", baseUrl: "" }, (b) => probe.keyMode(b)).read(),
      });
      expect((await firm.getAssets()).length).toBeGreaterThan(10);
      // The same settings without asking the gateway: the client asks for a key, as it must for a service.
      const plain = createClient({ settings: () => new SettingsStore(kv, { apiKey: "", baseUrl: "" }).read() });
      await expect(plain.getAssets()).rejects.toThrow("No API key is set");
    } finally {
      g.location = before;
    }
  });

  it("MD.SERIES and MD.LATEST through the gateway equal the service's own answers", async () => {
    const bundle = analyst();
    const table = (await bundle.call("SERIES", ["eth, btc", "price,fees", "2024-01-01", "2024-01-31"])) as unknown[][];
    const raw = (
      await sandboxJson<Series>("/data/api/PRICE,FEES/", {
        symbols: "eth,btc",
        startDate: "2024-01-01",
        endDate: "2024-01-31",
      })
    ).data.symbols;
    expect(table[0]).toEqual(["Date", "eth PRICE", "eth FEES", "btc PRICE", "btc FEES"]);
    expect(table.slice(1)).toEqual(
      raw.eth.PRICE.map((p, i) => [
        serial(p.date),
        p.val,
        raw.eth.FEES[i].val,
        raw.btc.PRICE[i].val,
        raw.btc.FEES[i].val,
      ]),
    );
    const feb = (
      await sandboxJson<Series>("/data/api/PRICE/", { symbols: "sol", startDate: "2024-02-01", endDate: "2024-02-29" })
    ).data.symbols.sol.PRICE;
    expect(await bundle.call("LATEST", ["SOL", "price", "2024-02-29"])).toBe(feb[feb.length - 1].val);
  });

  it("a second analyst's runtime is answered from the gateway's cache: the sandbox sees the first request only", async () => {
    const args = ["eth", "TVL", "2023-03-01", "2023-03-31"];
    const first = await analyst().call("SERIES", args);
    const before = rig.sandbox.stats().requests;
    const mark = seen.length;
    const second = await analyst().call("SERIES", args);
    expect(second).toEqual(first);
    expect(rig.sandbox.stats().requests).toBe(before);
    const answers = seen.slice(mark).filter((f) => f.url.includes("/api/data/api/"));
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((f) => /x-cache-status: HIT/i.test(f.headers))).toBe(true);
  });

  it("twenty analysts opening the same cold insight feed reach the sandbox once", async () => {
    rig.sandbox.resetInsightCache();
    const before = sandboxRequests(rig.sandbox, "/insights/decline-streaks/");
    const runtimes = Array.from({ length: 20 }, () => analyst());
    const started = Date.now();
    const tables = await Promise.all(runtimes.map((bundle) => bundle.call("INSIGHTS", ["DECLINE-STREAKS"])));
    const ms = Date.now() - started;
    expect(sandboxRequests(rig.sandbox, "/insights/decline-streaks/") - before).toBe(1);
    expect(new Set(tables.map((t) => JSON.stringify(t))).size).toBe(1);
    expect((tables[0] as unknown[][]).length).toBeGreaterThan(1);
    console.log(
      `20 concurrent MD.INSIGHTS("DECLINE-STREAKS") from 20 runtimes → 1 sandbox request, ${ms} ms (first call 1.5 s)`,
    );
  }, 30_000);

  it("a client's own APIKey is dropped: the firm's key is used and the cached answer shared", async () => {
    const url = `${rig.gateway.url}/api/data/api/PRICE/?symbols=btc&startDate=2024-03-01&endDate=2024-03-05`;
    const plain = await fetch(url);
    const withKey = await fetch(`${url}&APIKey=someone-elses-key&apikey=${DEMO_API_KEY}`);
    expect(plain.status).toBe(200);
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get("x-cache-status")).toBe("HIT");
    expect(await withKey.json()).toEqual(await plain.json());
    // A key spelled with a %-escape cannot be removed with certainty: refused, not passed on.
    const sneaky = await fetch(`${url}&API%4Bey=someone-elses-key`);
    expect(sneaky.status).toBe(400);
    expect(rig.sandbox.requestLog().every((e) => !e.query.includes("someone-elses-key"))).toBe(true);
  });

  it("settled series live a day; recent days only minutes (2 s here, so up to 3 s in whole seconds), then a refresh goes upstream", async () => {
    const settled = `${rig.gateway.url}/api/data/api/FEES/?symbols=eth&startDate=2024-04-01&endDate=2024-04-30`;
    const recent = `${rig.gateway.url}/api/data/api/FEES/?symbols=eth&startDate=${localToday(-10)}&endDate=${localToday()}`;
    expect((await fetch(settled)).headers.get("x-cache-status")).toBe("MISS");
    expect((await fetch(recent)).headers.get("x-cache-status")).toBe("MISS");
    await new Promise((r) => setTimeout(r, 3500)); // nginx counts lifetimes in whole seconds
    expect((await fetch(settled)).headers.get("x-cache-status")).toBe("HIT");
    // Expired: served stale while one background request refreshes it.
    expect(["EXPIRED", "STALE", "UPDATING"]).toContain((await fetch(recent)).headers.get("x-cache-status"));
  });

  it("when the sandbox fails, the cached answer is still served (stale), with values intact", async () => {
    const args = ["btc", "PRICE", localToday(-5), localToday()];
    const fresh = await analyst().call("SERIES", args);
    await new Promise((r) => setTimeout(r, 3500)); // nginx counts lifetimes in whole seconds
    rig.sandbox.setFaults({ serverErrorRate: 1 });
    try {
      // nginx serves the stale answer at once and asks the service in the background
      // (proxy_cache_background_update): wait for that request itself, however late it comes.
      const asked = rig.sandbox.nextRequest(
        (e) => e.path.startsWith("/data/api/") && e.fault === "server-error",
        "failed series request from the gateway",
      );
      const mark = seen.length;
      const during = await analyst().call("SERIES", args);
      expect(during).toEqual(fresh);
      const statuses = seen
        .slice(mark)
        .filter((f) => f.url.includes("/api/data/api/"))
        .map((f) => /x-cache-status: (\w+)/i.exec(f.headers)?.[1]);
      expect(statuses).toContain("STALE");
      // The sandbox was asked and failed: the gateway tried, then fell back.
      // (500 or 503: the sandbox draws which from its seeded sequence, which every earlier request moves on.)
      const failed = await asked;
      expect(failed).toMatchObject({ path: "/data/api/PRICE/", fault: "server-error" });
      expect([500, 503]).toContain(failed.status);
    } finally {
      rig.sandbox.setFaults({ serverErrorRate: 0 });
    }
  });

  it("passes status codes and the service's Retry-After through", async () => {
    const unknownFeed = await fetch(`${rig.gateway.url}/api/insights/no-such-feed/`);
    expect(unknownFeed.status).toBe(404);
    expect(JSON.stringify(await unknownFeed.json())).toMatch(/Unknown insight feed/);
    rig.sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: 7 });
    try {
      const limited = await fetch(
        `${rig.gateway.url}/api/data/api/PRICE/?symbols=doge&startDate=2022-01-01&endDate=2022-01-09`,
      );
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("7");
    } finally {
      rig.sandbox.setFaults({ rateLimitRate: 0 });
    }
  });

  it("serves the add-in: hashed chunks immutable, the rest revalidated, gzip, the pane's CSP with connect-src 'self'", async () => {
    const get = (p: string) => fetch(`${rig.gateway.url}${p}`, { headers: { "Accept-Encoding": "gzip" } });
    for (const file of ["/functions.js", "/functions.json", "/taskpane.html", "/taskpane.js", "/manifest.xml"]) {
      const response = await get(file);
      expect([file, response.status, response.headers.get("cache-control")]).toEqual([file, 200, "no-cache"]);
      expect(response.headers.get("etag")).toBeTruthy();
    }
    const hashed = readdirSync(DIST).filter((f) => /\.[0-9a-f]{8}\.js$/.test(f));
    expect(hashed.length).toBeGreaterThan(0);
    for (const chunk of hashed) {
      expect((await get(`/${chunk}`)).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    // Images: no Cache-Control at all, or Office shows a generic icon (Microsoft Learn, manifest "Image element").
    for (const icon of ["/assets/icon-16.png", "/assets/icon-32.png", "/assets/icon-80.png"]) {
      const response = await get(icon);
      expect([icon, response.status, response.headers.get("cache-control")]).toEqual([icon, 200, null]);
      expect(response.headers.get("etag")).toBeTruthy();
    }
    expect((await get("/functions.js")).headers.get("content-encoding")).toBe("gzip");
    const csp = (await get("/taskpane.html")).headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/(^|; )connect-src 'self'(;|$)/);
    expect(csp).toMatch(/script-src 'self' https:\/\/appsforoffice\.microsoft\.com/);
    const revalidated = await fetch(`${rig.gateway.url}/functions.js`, {
      headers: { "If-None-Match": (await get("/functions.js")).headers.get("etag")! },
    });
    expect(revalidated.status).toBe(304);
  });

  it("the firm's key is in no response, no log line and no file the gateway wrote", async () => {
    expect(seen.length).toBeGreaterThan(40);
    const leaks = seen.filter(
      (f) => f.url.includes(rig.key) || f.headers.includes(rig.key) || f.body.includes(rig.key),
    );
    expect(leaks.map((f) => f.url)).toEqual([]);
    const log = accessLog(rig.gateway);
    expect(accessEntries(log).some((entry) => entry.cache === "HIT")).toBe(true);
    expect(accessEntries(log).some((entry) => /^\d+\.\d{3}$/.test(entry.request_time))).toBe(true);
    expect(filesUnder(rig.gateway.cacheDir).length).toBeGreaterThan(5);
    // Logs, cache, temp files and the configuration directory (firm-key.conf is gone once nginx read it).
    expect(filesContaining([rig.gateway.stateDir, rig.gateway.confDir], rig.key)).toEqual([]);
    expect(
      filesUnder(rig.gateway.confDir)
        .map((f) => f.slice(rig.gateway.confDir.length + 1))
        .sort(),
    ).toEqual([
      "api-proxy.conf",
      "key-pass-through.conf",
      "mime.types",
      "nginx.conf",
      "nginx.pid",
      "series-calendar.conf",
      "service-tier.conf",
      "service-tier.js",
    ]);
  });
});
