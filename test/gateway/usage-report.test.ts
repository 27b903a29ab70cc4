/**
 * The usage report's reading of lines that are not the gateway's (a real gateway's log: audit-log.test.ts),
 * and the check every gateway test makes of its gateway's files at its stop.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { GatewayHandle } from "../../scripts/lib/gateway";
import { usageReport } from "../../scripts/lib/gateway/usage-report";
import { ACCESS_LOG_FIELDS, auditProblems } from "../support/gateway";

const line = (fields: Record<string, string>) =>
  JSON.stringify({
    time: "2026-11-27T09:00:00+00:00",
    user: "u1",
    status: "200",
    cache: "MISS",
    bytes: "10",
    ...fields,
  });

describe("usage report", () => {
  it("skips and counts lines that are not the gateway's JSON, and counts the rest per user and day", () => {
    const log = [
      line({}),
      line({ cache: "HIT", bytes: "5" }),
      line({ status: "429", cache: "", bytes: "0" }),
      line({ user: "", status: "401", cache: "", time: "2026-11-28T00:00:01+00:00" }),
      '127.0.0.1 - - [27/Nov/2026:09:00:00 +0000] "GET / HTTP/1.1" 200 10',
      "{not json",
      JSON.stringify({ time: "yesterday", user: "u1", status: "200", cache: "", bytes: "1" }),
      JSON.stringify([1, 2]),
      "",
    ].join("\n");
    const report = usageReport(log);
    expect(report.skipped).toBe(4);
    expect(report.rows).toEqual([
      { user: "u1", day: "2026-11-27", requests: 3, bytes: 15, cacheHits: 1, cacheable: 2, refusals: 1 },
      { user: "(not signed in)", day: "2026-11-28", requests: 1, bytes: 10, cacheHits: 0, cacheable: 0, refusals: 1 },
    ]);
    expect(report.table.split("\n")[2]).toMatch(/^2026-11-27\s+u1\s+3\s+15\s+50% of 2\s+1$/);
    expect(report.table).toContain("(4 lines skipped: not the gateway's JSON access log)");
  });

  it("npm run gateway -- usage <log> prints the table; a missing log is named", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "md-usage-"));
    try {
      const file = path.join(dir, "access.log");
      writeFileSync(file, `${line({})}\n`);
      const tsx = path.resolve(__dirname, "../../node_modules/.bin/tsx");
      const script = path.resolve(__dirname, "../../scripts/gateway.ts");
      expect(execFileSync(tsx, [script, "usage", file], { encoding: "utf8" })).toMatch(/2026-11-27\s+u1\s+1\s+10/);
      expect(() => execFileSync(tsx, [script, "usage", path.join(dir, "none.log")], { stdio: "pipe" })).toThrow(
        /none\.log does not exist/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the gateway tests' check at each gateway's stop (auditProblems)", () => {
  it("finds a line that is not JSON, a line missing a field, the firm key and a token, and nothing in clean files", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "md-audit-"));
    try {
      const logsDir = path.join(dir, "logs");
      const cacheDir = path.join(dir, "cache");
      mkdirSync(logsDir);
      mkdirSync(cacheDir);
      const gateway = { logsDir, cacheDir } as GatewayHandle;
      const full = Object.fromEntries(ACCESS_LOG_FIELDS.map((field) => [field, ""]));
      writeFileSync(path.join(logsDir, "access.log"), `${JSON.stringify(full)}\n`);
      writeFileSync(path.join(cacheDir, "answer"), "{}");
      expect(auditProblems(gateway, "md-firm-secret")).toEqual([]);

      const { tenant: _dropped, ...partial } = full;
      writeFileSync(
        path.join(logsDir, "access.log"),
        `127.0.0.1 - - "GET / HTTP/1.1" 200\n${JSON.stringify(partial)}\n${JSON.stringify(full)}\n`,
      );
      writeFileSync(path.join(cacheDir, "answer"), "KEY: md-firm-secret");
      writeFileSync(path.join(logsDir, "error.log"), "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln");
      expect(auditProblems(gateway, "md-firm-secret")).toEqual([
        expect.stringMatching(/^an access log line is not JSON: 127\.0\.0\.1/),
        expect.stringMatching(/^an access log line lacks tenant/),
        `the firm key is in ${path.join(cacheDir, "answer")}`,
        `an access token is in ${path.join(logsDir, "error.log")}`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
