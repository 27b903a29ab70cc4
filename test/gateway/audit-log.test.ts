/**
 * The gateway's audit trail (issue: an audit trail IT can ship): the access
 * log is JSON lines (nginx's log_format escape=json), one per request, naming
 * the user, the tenant, the endpoint, the symbols and metrics asked, the
 * status, the cache status, the bytes and the times — never the token, never
 * a key; optionally to syslog (nginx's own syslog: target). The usage report
 * (`npm run gateway -- usage <log>`) reads a log a real gateway wrote.
 */
import { createSocket, type Socket } from "node:dgram";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import path from "node:path";
import { usageReport } from "../../scripts/lib/gateway/usage-report";
import { ACCESS_LOG_FIELDS, accessEntries, accessLogWith, describeGateway, useGatewayRig } from "../support/gateway";
import { gatewayIdentity, useIdentityProvider, TEST_TENANT, type IdentityProvider } from "../support/identity";

const ROLE = "MarketData.Read";
let idp: IdentityProvider;
let syslog: Socket;
const syslogLines: string[] = [];
const syslogArrived: Array<() => void> = [];

async function listenForSyslog(): Promise<string> {
  syslog = createSocket("udp4");
  syslog.on("message", (message) => {
    syslogLines.push(message.toString());
    syslogArrived.splice(0).forEach((wake) => wake());
  });
  syslog.bind(0, "127.0.0.1");
  await once(syslog, "listening");
  return `127.0.0.1:${syslog.address().port}`;
}

/** The syslog messages once one matches `test`, waiting for each datagram (bounded). */
async function syslogWith(test: (line: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = syslogLines.find(test);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`No syslog message matched within 10 s (${syslogLines.length} received)`);
    await new Promise<void>((wake) => {
      syslogArrived.push(wake);
      setTimeout(wake, 500).unref();
    });
  }
}

describeGateway("the audit trail: JSON access log, syslog, usage report (nginx + njs + oidc-provider)", () => {
  idp = useIdentityProvider();
  let syslogAddress = "";
  beforeAll(async () => {
    syslogAddress = await listenForSyslog();
  });
  afterAll(() => syslog?.close());
  const rig = useGatewayRig(() => ({
    firm: true,
    gateway: { identity: gatewayIdentity(idp, ROLE), syslog: syslogAddress },
  }));

  const get = (token: string, pathAndQuery: string) =>
    fetch(`${rig.gateway.url}${pathAndQuery}`, { headers: { Authorization: `Bearer ${token}` } });

  it("one JSON line per request, with who, what, the outcome and the times; never the token", async () => {
    const token = await idp.token({ roles: [ROLE], user: "audit-oid-1", name: "dana@example.com" });
    const answer = await get(
      token,
      "/api/data/api/PRICE,FEES/?symbols=eth,sol&startDate=2024-03-01&endDate=2024-03-04",
    );
    expect(answer.status).toBe(200);
    const body = await answer.text();
    const lines = await accessLogWith(rig.gateway, /"user":"audit-oid-1"/, "dana's request");
    const entry = accessEntries(lines).find((e) => e.user === "audit-oid-1")!;
    expect(Object.keys(entry).sort()).toEqual([...ACCESS_LOG_FIELDS].sort());
    expect(entry).toMatchObject({
      user: "audit-oid-1",
      name: "dana@example.com",
      tenant: TEST_TENANT,
      endpoint: "/api/data/api/PRICE,FEES/",
      symbols: "eth,sol",
      metrics: "PRICE,FEES",
      status: "200",
      cache: "MISS",
      request: "GET /api/data/api/PRICE,FEES/?symbols=eth,sol&startDate=2024-03-01&endDate=2024-03-04",
    });
    expect(entry.request_id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(entry.time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(Number(entry.bytes)).toBe(Buffer.byteLength(body));
    expect(Number(entry.request_time)).toBeGreaterThanOrEqual(0);
    expect(entry.upstream_time).toMatch(/^\d+\.\d{3}$/);
    const log = lines.join("\n");
    expect(log).not.toContain(token.split(".")[2]);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
    expect(log).not.toContain(rig.key);
  });

  it("a refusal is logged with its reason, and the same answer again as a cache hit", async () => {
    const refused = await get("not-a-token", "/api/asset/symbols/");
    expect(refused.status).toBe(401);
    const token = await idp.token({ roles: [ROLE], user: "audit-oid-2" });
    for (let i = 0; i < 2; i++)
      expect((await get(token, "/api/data/api/FEES/?symbols=eth&startDate=2024-01-01&endDate=2024-01-03")).status).toBe(
        200,
      );
    const lines = await accessLogWith(
      rig.gateway,
      {
        test: (l: string) => accessEntries(l ? [l] : []).some((e) => e.user === "audit-oid-2" && e.cache === "HIT"),
      } as RegExp,
      "the cache hit",
    );
    const entries = accessEntries(lines);
    const refusal = entries.find((e) => e.status === "401" && e.endpoint === "/api/asset/symbols/")!;
    expect(refusal.user).toBe("");
    expect(refusal.refusal).toMatch(/token/);
    expect(entries.filter((e) => e.user === "audit-oid-2").map((e) => e.cache)).toEqual(["MISS", "HIT"]);
  });

  it("the same JSON lines reach a syslog server (--syslog host:port)", async () => {
    const token = await idp.token({ roles: [ROLE], user: "audit-oid-3" });
    expect((await get(token, "/api/insights/eth/")).status).toBeLessThan(500);
    const message = await syslogWith((line) => line.includes('"user":"audit-oid-3"'));
    // RFC 3164 as nginx sends it: <PRI>timestamp host tag: message
    expect(message).toMatch(/^<\d+>\w{3} [ \d]\d \d\d:\d\d:\d\d \S+ md_gateway: \{/);
    const entry = JSON.parse(message.slice(message.indexOf("{"))) as Record<string, string>;
    expect(entry).toMatchObject({ user: "audit-oid-3", endpoint: "/api/insights/eth/" });
    expect(message).not.toContain(token.split(".")[2]);
  });

  it("the usage report reads the log the gateway wrote: per user and day, requests, bytes, hit rate, refusals", async () => {
    const token = await idp.token({ roles: [ROLE], user: "audit-oid-4" });
    for (let i = 0; i < 3; i++) await get(token, "/api/asset/symbols/");
    const lines = await accessLogWith(
      rig.gateway,
      { test: (l: string) => l.includes('"user":"audit-oid-4"') && l.includes('"cache":"HIT"') } as RegExp,
      "audit-oid-4's cache hits",
    );
    const mine = accessEntries(lines).filter((e) => e.user === "audit-oid-4");
    const text = readFileSync(path.join(rig.gateway.logsDir, "access.log"), "utf8");
    const report = usageReport(text);
    const row = report.rows.find((r) => r.user === "audit-oid-4")!;
    expect(row).toEqual({
      user: "audit-oid-4",
      day: mine[0].time.slice(0, 10),
      requests: mine.length,
      bytes: mine.reduce((sum, e) => sum + Number(e.bytes), 0),
      cacheHits: mine.filter((e) => e.cache === "HIT").length,
      cacheable: mine.filter((e) => e.cache !== "").length,
      refusals: 0,
    });
    expect(report.skipped).toBe(0);
    const anonymous = report.rows.find((r) => r.user === "(not signed in)")!;
    expect(anonymous.refusals).toBeGreaterThanOrEqual(1);
    expect(report.table).toContain("audit-oid-4");
  });
});
