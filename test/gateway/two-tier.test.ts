/**
 * The two-tier layout on this machine, real parts only (loopback): 3 edge
 * gateways (sign-in, allowlists, per-user limits; no key, no cache) and 2
 * cache nodes (the firm key, the cache, identical requests collapsed), each a
 * real nginx started by the gateway's own runner; the sandbox as the service;
 * the real OpenID Connect provider (oidc-provider) issuing each analyst's
 * token. The edges pick a cache node by consistent hash of the cache key
 * (nginx's `hash … consistent`), so an answer is fetched once for every edge.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { GatewayHandle } from "../../scripts/lib/gateway";
import { accessLogWith, describeGateway, filesContaining, filesUnder, statusFor } from "../support/gateway";
import { gatewayIdentity, useIdentityProvider } from "../support/identity";
import { useTwoTier, type TwoTierWorld } from "../support/two-tier";

const ROLE = "MarketData.Read";

/** One workbook: the requests its cells, the picker and the insight card make (the same for every analyst). */
function workbook(year: number): string[] {
  const series = ["eth", "btc", "sol", "avax", "matic", "arb"].flatMap((symbol) =>
    ["PRICE", "FEES"].map(
      (metric) => `/api/data/api/${metric}/?symbols=${symbol}&startDate=${year}-01-01&endDate=${year}-03-31`,
    ),
  );
  return [...series, `/api/asset/symbols/`, `/api/insights/streaks/`];
}

interface Answer {
  url: string;
  status: number;
  headers: string;
  body: string;
}

const idp = useIdentityProvider();
let tiers: TwoTierWorld;

/** The analysts: two per edge, each signed in as themself. */
async function analysts(count: number): Promise<{ edge: GatewayHandle; token: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, n) => ({
      edge: tiers.layout.edges[n % tiers.layout.edges.length],
      token: await idp.token({ roles: [ROLE], user: `analyst-${n}`, name: `Analyst ${n}` }),
    })),
  );
}

async function ask(edge: GatewayHandle, token: string, url: string): Promise<Answer> {
  const response = await fetch(`${edge.url}${url}`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });
  return {
    url,
    status: response.status,
    headers: [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n"),
    body: await response.text(),
  };
}

/** Every analyst opens the workbook at once, each through their own edge. */
async function openEverywhere(people: { edge: GatewayHandle; token: string }[], urls: string[]): Promise<Answer[]> {
  return (await Promise.all(people.map(({ edge, token }) => Promise.all(urls.map((u) => ask(edge, token, u)))))).flat();
}

/** Requests the service received since the `from`th, by path and query (the sandbox logs the key redacted). */
function serviceReceived(from: number): Map<string, number> {
  const seen = new Map<string, number>();
  for (const entry of tiers.sandbox.requestLog().slice(from)) {
    const key = `${entry.path}?${entry.query}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return seen;
}

/** A request's line in a cache node's access log: one that holds its path and its query as sent. */
function logged(url: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const [pathPart, query] = url.split("?");
  return new RegExp(`^(?=.*${escape(pathPart)}[?\\s"])${query ? `(?=.*${escape(query)})` : ""}`, "m");
}

/** The workbook's requests a cache node's access log shows it answered. */
function answeredBy(node: GatewayHandle, urls: string[]): string[] {
  const log = readFileSync(path.join(node.logsDir, "access.log"), "utf8");
  return urls.filter((url) => logged(url).test(log));
}

const opened: Answer[] = [];
/** The access tokens the analysts signed in with. */
const tokensUsed: string[] = [];
/** The cache node the mid-run case stops. */
let lostNode: GatewayHandle | undefined;

describeGateway("two tiers: 3 edges and 2 cache nodes (nginx), the sandbox, oidc-provider", () => {
  tiers = useTwoTier(() => gatewayIdentity(idp, ROLE));

  it("analysts signed in through different edges open the same workbook: the service receives each distinct request once", async () => {
    const people = await analysts(6);
    tokensUsed.push(...people.map((p) => p.token));
    const from = tiers.sandbox.requestLog().length;
    const answers = await openEverywhere(people, workbook(2024));
    opened.push(...answers);
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.url}: ${a.body}`)).toEqual([]);
    const received = serviceReceived(from);
    expect(received.size).toBe(workbook(2024).length);
    expect([...received].filter(([, times]) => times !== 1)).toEqual([]);
    // Every edge tells the add-in it is in firm mode (no key to enter) and how to sign in.
    for (const edge of tiers.layout.edges) {
      const answer = (await (await fetch(`${edge.url}/api/_gateway`)).json()) as { keyMode: string; auth?: object };
      expect(answer.keyMode).toBe("firm");
      expect(answer.auth).toBeDefined();
    }
    // Every answer came from the cache tier (an edge has no cache of its own).
    expect(answers.every((a) => /x-cache-status: (?:HIT|MISS|UPDATING|STALE)/i.test(a.headers))).toBe(true);
  }, 60_000);

  it("the cache tier refuses a request without the hop's shared secret, and forwards nothing for it", async () => {
    const node = tiers.layout.cacheNodes[0];
    const url = `${node.url}/api/data/api/PRICE/?symbols=eth&startDate=2023-01-01&endDate=2023-01-31`;
    const before = tiers.sandbox.stats().requests;
    const refused = await Promise.all(
      (
        [{}, { "X-MD-Hop": "not-the-secret" }, { "X-MD-Hop": tiers.layout.hopSecret.toUpperCase() }] as Record<
          string,
          string
        >[]
      ).map(async (headers) => (await fetch(url, { headers })).status),
    );
    expect(refused).toEqual([403, 403, 403]);
    expect((await fetch(`${node.url}/healthz`)).status).toBe(403);
    expect((await fetch(`${node.url}/taskpane.html`)).status).toBe(403);
    // Another host name than the tier's: refused before the secret is even looked at.
    expect(await statusFor(url, { Host: "elsewhere.example", "X-MD-Hop": tiers.layout.hopSecret })).toBe(421);
    expect(tiers.sandbox.stats().requests).toBe(before);
    // With the secret the same request is answered: what refused it above is the secret's absence.
    const admitted = await fetch(url, { headers: { "X-MD-Hop": tiers.layout.hopSecret } });
    expect(admitted.status).toBe(200);
  });

  it("the firm key is on the cache tier only: in no edge file, log or command line, and in no answer", async () => {
    const { key, hopSecret, edges, cacheNodes } = tiers.layout;
    expect(opened.length).toBeGreaterThan(0);
    for (const edge of edges) {
      expect(filesContaining([edge.confDir, edge.stateDir], key)).toEqual([]);
      // Nor any trace of the service: an edge's configuration knows the cache nodes only.
      expect(filesUnder(edge.confDir).filter((f) => readFileSync(f, "utf8").includes(tiers.sandbox.url))).toEqual([]);
    }
    // The hop's secret and the key: in no log or cache file of either tier, on no nginx command line.
    const everyState = [...edges, ...cacheNodes].map((g) => g.stateDir);
    expect(filesContaining(everyState, hopSecret)).toEqual([]);
    expect(filesContaining(everyState, key)).toEqual([]);
    for (const g of [...edges, ...cacheNodes]) {
      const argv = readFileSync(`/proc/${g.pid}/cmdline`, "utf8");
      expect(argv.includes(key) || argv.includes(hopSecret)).toBe(false);
      // The include files that held them are gone once nginx has read them.
      expect(filesContaining([g.confDir], key)).toEqual([]);
      expect(filesContaining([g.confDir], hopSecret)).toEqual([]);
    }
    // No analyst's token is in any file of either tier (an edge passes none of the analyst's headers on).
    expect(tokensUsed.length).toBeGreaterThan(0);
    for (const token of tokensUsed) expect(filesContaining(everyState, token)).toEqual([]);
    const leaked = opened.filter((a) => `${a.headers}\n${a.body}`.includes(key) || a.body.includes(hopSecret));
    expect(leaked).toEqual([]);
  });

  it("the per-user limit is the edges': analysts arriving through one edge are not limited as one client by the cache tier", async () => {
    // Two analysts, 150 requests each: within each one's own burst (200) at the edge, but 300 from one
    // address (the edge's) at the cache node, over a per-client limit of 20 r/s and a burst of 200.
    const [one, two] = await analysts(2);
    const url = workbook(2024)[0];
    const statuses = await Promise.all(
      [one, two].flatMap(({ token }) =>
        Array.from({ length: 150 }, async () => (await ask(tiers.layout.edges[0], token, url)).status),
      ),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 60_000);

  it("a cache node lost mid-run: no request fails, the other node answers, and the lost node's keys move to it", async () => {
    const [first, second] = tiers.layout.cacheNodes;
    // The node that answered more of the first workbook is the one lost.
    const lost = answeredBy(first, workbook(2024)).length >= answeredBy(second, workbook(2024)).length ? first : second;
    const survivor = lost === first ? second : first;
    const movedKeys = answeredBy(lost, workbook(2024));
    expect(movedKeys.length).toBeGreaterThan(0);

    const people = await analysts(6);
    tiers.sandbox.setLatency(300);
    // A workbook not asked yet: its requests are on their way to the service when the node goes.
    const opening = openEverywhere(people, workbook(2022));
    await tiers.sandbox.nextRequest(
      (entry) => entry.query.includes("2022-01-01"),
      "the second workbook's first request",
    );
    process.kill(-lost.pid, "SIGKILL");
    await lost.exited;
    lostNode = lost;
    const answers = await opening;
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.url}: ${a.body}`)).toEqual([]);

    // The lost node's keys, asked again through every edge: answered by the survivor.
    tiers.sandbox.setLatency(0);
    const again = await openEverywhere(people.slice(0, 3), movedKeys);
    expect(again.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.url}`)).toEqual([]);
    for (const url of movedKeys) await accessLogWith(survivor, logged(url), `${url} on the surviving cache node`);
  }, 90_000);

  it("no cache node left: every edge answers its own JSON 502 at once, without the service", async () => {
    const survivor = tiers.layout.cacheNodes.find((node) => node !== lostNode);
    expect(lostNode).toBeDefined();
    process.kill(-survivor!.pid, "SIGKILL");
    await survivor!.exited;
    const [analyst] = await analysts(1);
    const before = tiers.sandbox.stats().requests;
    const answers = await Promise.all(tiers.layout.edges.map((edge) => ask(edge, analyst.token, workbook(2021)[0])));
    expect(answers.map((a) => a.status)).toEqual([502, 502, 502]);
    expect(tiers.sandbox.stats().requests).toBe(before);
    for (const answer of answers)
      expect(JSON.parse(answer.body)).toEqual({ message: expect.stringMatching(/could not be reached/) });
  });
});

describeGateway("two tiers while the service fails", () => {
  // Answers expire after a second here (a day, an hour, 5 minutes by default), so expiry can be watched.
  const short = useTwoTier(() => gatewayIdentity(idp, ROLE), {
    times: { settled: "1s", recent: "1s", catalog: "1s" },
  });

  it("an expired answer is served stale through every edge while the service fails, and the service was asked", async () => {
    const token = await idp.token({ roles: [ROLE], user: "analyst-stale" });
    const url = workbook(2020)[0];
    const fresh = await ask(short.layout.edges[0], token, url);
    expect(fresh.status).toBe(200);
    short.sandbox.setFaults({ serverErrorRate: 1 });
    try {
      const failed = short.sandbox.nextRequest(
        (e) => e.query.includes("2020-01-01") && e.fault === "server-error",
        "the cache node's refresh of the expired answer",
        20_000,
      );
      // Asked again until the answer has expired (nginx counts lifetimes in whole seconds): every answer
      // meanwhile is the cached one, and once expired, the stale one.
      const deadline = Date.now() + 15_000;
      for (let n = 0; ; n++) {
        const again = await ask(short.layout.edges[n % 3], token, url);
        expect(again.status).toBe(200);
        expect(again.body).toBe(fresh.body);
        if (/x-cache-status: (?:STALE|UPDATING)/i.test(again.headers)) break;
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await failed).toMatchObject({ path: "/data/api/PRICE/", fault: "server-error" });
      // Still served, through each edge, while the service keeps failing.
      for (const edge of short.layout.edges) {
        const during = await ask(edge, token, url);
        expect([during.status, during.body]).toEqual([200, fresh.body]);
      }
    } finally {
      short.sandbox.setFaults({ serverErrorRate: 0 });
    }
  }, 60_000);
});
